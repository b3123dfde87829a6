"""Classes of installed packages, read from their source with `ast` (never imported), else bundled facts.

A linted application's spans are mostly the frameworks' classes (`TextNode` from LlamaIndex,
`AIMessage` from LangChain). When the tree imports or extends a class it does not define, the
project index (`ProjectIndex.frameworks`) asks `FrameworkClasses.class_facts(module, name)`:

1. the module's source in the target environment: the interpreter `--python` / `python = ...`
   names, else `$VIRTUAL_ENV`'s, else the one spanlint runs in. Its `sys.path` is searched as the
   import system would (package directories, `__init__.py`, `.pyi`), and the module is read with
   `ast` into the same `ClassFacts` the tree's own classes get; re-exports (`from .schema import *`,
   `__all__`, `from x import Y as Z`) and base classes in other modules or packages are followed.
   Only the modules reached this way are read, each once, and what a module declares is kept in
   the cache directory under its distribution and version (`llama_index_core-0.14.25/<module>.json`);
2. else bundled facts (`rules/frameworks/facts.json`, made from pinned wheels by
   `tools/make_framework_facts.py`) for the main frameworks' span types.

What came from bundled facts, or was found nowhere, is told once at the end of a run (`note`).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Iterable

from spanlint.rules.project import RECORD_LIBRARIES, ClassFacts, absolute_module, class_facts, module_imports

BUNDLED_FACTS = Path(__file__).with_name("frameworks") / "facts.json"
FACTS_FORMAT = 1
# Re-exports followed from one imported name to the class it binds; far above any real chain.
MAX_HOPS = 12
_SOURCE_SUFFIXES = (".py", ".pyi")
_PATH_SCRIPT = "import json, sys; print(json.dumps(sys.path))"


class InterpreterError(ValueError):
    """The interpreter named as the environment cannot be run or does not say its `sys.path`."""


@dataclass
class ModuleFacts:
    """What one module declares: its classes and the names its imports bind."""

    classes: dict[str, ClassFacts] = field(default_factory=dict)
    # local name -> (absolute module, name there); name "" for a module alias (`import a.b as m`)
    names: dict[str, tuple[str, str]] = field(default_factory=dict)
    stars: tuple[str, ...] = ()  # modules imported with `from m import *`
    exports: tuple[str, ...] | None = None  # `__all__`, when a literal

    def exported(self, name: str) -> bool:
        """`name` is what `from this import *` binds."""
        return name in self.exports if self.exports is not None else not name.startswith("_")


def module_facts(source: str, module: str, path: str, is_package: bool) -> ModuleFacts:
    """The classes and bindings of the module `module` (source `source`, file `path`)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(source)
    package = module if is_package else module.rpartition(".")[0]
    names = module_imports(tree.body, package)
    facts = ModuleFacts(names=names)
    stars: list[str] = []
    for statement in _module_statements(tree.body):
        if isinstance(statement, ast.ClassDef):
            facts.classes.setdefault(statement.name, class_facts(statement, path, names, module))
        elif isinstance(statement, ast.ImportFrom) and any(a.name == "*" for a in statement.names):
            star = absolute_module(statement, package)
            if star:
                stars.append(star)
        elif isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            alias = _class_alias(statement)
            if alias is not None:  # `CallbackContext = Context`: the name binds the class the other does
                facts.names[alias[0]] = names.get(alias[1], (module, alias[1]))
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                listed = _string_list(statement.value)
                if listed is not None:
                    facts.exports = (facts.exports or ()) + listed if isinstance(statement, ast.AugAssign) else listed
    facts.stars = tuple(stars)
    return facts


def _class_alias(statement: ast.stmt) -> tuple[str, str] | None:
    """(alias, name) for a module-level `Alias = Name` between capitalized names (a class bound twice)."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.value, ast.Name)):
        return None
    target = statement.targets[0]
    if not isinstance(target, ast.Name) or not target.id[:1].isupper() or not statement.value.id[:1].isupper():
        return None
    return target.id, statement.value.id


def _module_statements(body: list[ast.stmt]) -> Iterable[ast.stmt]:
    """The module-level statements of `body`, also those under `if` (`TYPE_CHECKING`) and `try`."""
    pending = list(body)
    while pending:
        statement = pending.pop(0)
        if isinstance(statement, (ast.If, ast.Try)):
            handlers = [s for h in getattr(statement, "handlers", ()) for s in h.body]
            pending[:0] = [*statement.body, *handlers, *statement.orelse, *getattr(statement, "finalbody", ())]
        else:
            yield statement


def _string_list(node: ast.expr | None) -> tuple[str, ...] | None:
    if isinstance(node, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
    return None


# --- the JSON form, shared by the cache and the bundled facts -----------------------------------

_CLASS_DEFAULTS = {"path": "", "is_record": False, "auto_versioned": False, "table_row": False}


def encode_module(facts: ModuleFacts) -> dict[str, Any]:
    """`facts` as compact JSON data: sorted, default values left out."""
    data: dict[str, Any] = {}
    if facts.classes:
        data["classes"] = {name: encode_class(c) for name, c in sorted(facts.classes.items())}
    if facts.names:
        data["names"] = {local: list(bound) for local, bound in sorted(facts.names.items())}
    if facts.stars:
        data["stars"] = list(facts.stars)
    if facts.exports is not None:
        data["exports"] = sorted(facts.exports)
    return data


def decode_module(data: dict[str, Any]) -> ModuleFacts:
    return ModuleFacts(
        classes={name: decode_class(c, name) for name, c in data.get("classes", {}).items()},
        names={local: (bound[0], bound[1]) for local, bound in data.get("names", {}).items()},
        stars=tuple(data.get("stars", ())),
        exports=tuple(data["exports"]) if "exports" in data else None,
    )


def encode_class(facts: ClassFacts) -> dict[str, Any]:
    """A class's facts without its name (the key it is stored under) and default values."""
    data: dict[str, Any] = {}
    for name, value in vars(facts).items():
        if name == "name" or value == _CLASS_DEFAULTS.get(name) or value in ((), frozenset()):
            continue
        if isinstance(value, frozenset):
            value = sorted(value)
        elif isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        data[name] = value
    return data


def decode_class(data: dict[str, Any], name: str) -> ClassFacts:
    """The `ClassFacts` that `encode_class` wrote: every field, each back in its declared shape."""
    values: dict[str, Any] = {"name": name, "declared": frozenset(), "properties": frozenset(), "bases": (), "is_record": False}
    for spec in fields(ClassFacts):
        if spec.name == "name" or spec.name not in data:
            continue
        value, declared = data[spec.name], str(spec.type)
        if declared.startswith("frozenset"):
            value = frozenset(value)
        elif declared.startswith("tuple"):
            value = _as_tuples(value)
        values[spec.name] = value
    return ClassFacts(**values)


def _as_tuples(value: Any) -> Any:
    """JSON lists back as the tuples they were (`[["m", ["a", "b"]]]` as `(("m", ("a", "b")),)`)."""
    return tuple(map(_as_tuples, value)) if isinstance(value, list) else value


# --- the environment -----------------------------------------------------------------------------


def environment_interpreter(python: str | None) -> str | None:
    """The interpreter whose environment is linted against: `python`, else `$VIRTUAL_ENV`'s when it is
    not the one running spanlint; None for the one running spanlint."""
    if python:
        return shutil.which(python) or python if os.sep not in python and "/" not in python else python
    venv = os.environ.get("VIRTUAL_ENV")
    if venv and os.path.realpath(venv) != os.path.realpath(sys.prefix):
        for candidate in (Path(venv) / "bin" / "python", Path(venv) / "Scripts" / "python.exe"):
            if candidate.exists():
                return str(candidate)
    return None


# The entry Python put first on spanlint's own `sys.path` for the way it was started: the script's
# directory (`bin/` of the `spanlint` script), or the current directory (`python -m spanlint`, `-c`).
_INVOCATION_ENTRY = sys.path[0] if sys.path and not sys.flags.safe_path else None


def interpreter_paths(python: str | None, store: Path | None = None) -> list[str]:
    """The `sys.path` of `python` (run once with `-I`, then remembered in `store` while the
    interpreter file is unchanged); for None, spanlint's own without the entry of the way it was
    started (`_INVOCATION_ENTRY`), as `-I` leaves it out for another interpreter: the script and
    `python -m spanlint` find the same classes and share the cache. Raises `InterpreterError`."""
    if python is None:
        return [p for p in sys.path if p and p != _INVOCATION_ENTRY]
    try:
        status = os.stat(python)
    except OSError as error:
        raise InterpreterError(f"{python}: cannot use this Python interpreter: {error.strerror or error}") from None
    key = hashlib.sha256(f"{os.path.realpath(python)}\0{status.st_mtime_ns}\0{status.st_size}".encode()).hexdigest()[:24]
    remembered = store / f"interpreter-{key}.json" if store is not None else None
    if remembered is not None:
        try:
            paths = json.loads(remembered.read_text(encoding="utf-8"))
            if isinstance(paths, list) and all(isinstance(p, str) for p in paths):
                return paths
        except (OSError, ValueError):
            pass
    try:
        done = subprocess.run([python, "-I", "-c", _PATH_SCRIPT], capture_output=True, text=True, timeout=30)
        paths = json.loads(done.stdout) if done.returncode == 0 else None
    except (OSError, subprocess.SubprocessError, ValueError) as error:
        raise InterpreterError(f"{python}: cannot use this Python interpreter: {error}") from None
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        detail = " ".join(done.stderr.split())[-200:]
        raise InterpreterError(f"{python}: cannot use this Python interpreter (it did not report its sys.path){': ' + detail if detail else ''}")
    paths = [p for p in paths if p]
    if remembered is not None:
        _write_json(remembered, paths)
    return paths


def _write_json(path: Path, data: Any) -> None:
    """Write `data` to `path` atomically; a cache that cannot be written is no error."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(data, stream, sort_keys=True, separators=(",", ":"))
        os.replace(temporary, path)
    except OSError:
        pass


def _is_standard_library(entry: str) -> bool:
    """A `sys.path` entry of the standard library (`lib/python3.12`, `lib-dynload`, `python312.zip`):
    its classes are no framework's spans, and reading them (`pathlib.Path`) would only cost time."""
    name = os.path.basename(os.path.normpath(entry)).lower()
    return name == "lib-dynload" or name.endswith(".zip") or bool(re.fullmatch(r"python\d(?:\.\d+)?|lib", name))


@dataclass(frozen=True)
class ModuleFile:
    """Where a module's source is: the `sys.path` entry, the file, and whether it is a package."""

    entry: str
    path: str
    is_package: bool


class Environment:
    """The modules an interpreter's `sys.path` holds, found without importing them."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.paths = tuple(p for p in paths if os.path.isdir(p) and not _is_standard_library(p))
        self._listings: dict[str, frozenset[str]] = {}

    def find(self, module: str) -> ModuleFile | None:
        """The source of `module`: `a/b/__init__.py[i]` or `a/b.py[i]` under the first entry that has it."""
        parts = module.split(".")
        for entry in self.paths:
            listing = self._listing(entry)
            if parts[0] not in listing and f"{parts[0]}.py" not in listing and f"{parts[0]}.pyi" not in listing:
                continue
            base = os.path.join(entry, *parts)
            for suffix in _SOURCE_SUFFIXES:
                init = os.path.join(base, "__init__" + suffix)
                if os.path.isfile(init):
                    return ModuleFile(entry, init, True)
            for suffix in _SOURCE_SUFFIXES:
                if os.path.isfile(base + suffix):
                    return ModuleFile(entry, base + suffix, False)
        return None

    def source_key(self, found: ModuleFile) -> str:
        """The name the module's facts are kept under: `<distribution>-<version>` of the installed
        distribution whose name its path starts with, else its path and stat."""
        relative = Path(found.path).relative_to(found.entry).parts
        distributions = self._distributions(found.entry)
        for length in range(len(relative) - 1, 0, -1):
            name = "_".join(relative[:length]).lower().replace("-", "_")
            if name in distributions:
                return distributions[name]
        status = os.stat(found.path)
        return "file-" + hashlib.sha256(f"{found.path}\0{status.st_mtime_ns}\0{status.st_size}".encode()).hexdigest()[:24]

    def fingerprint(self) -> str:
        """A digest of the entries and the distributions installed in them: changes when a package is
        installed, removed or upgraded."""
        hasher = hashlib.sha256()
        for entry in self.paths:
            hasher.update(entry.encode("utf-8", "surrogatepass") + b"\0")
            for name in sorted(self._listing(entry)):
                if name.endswith((".dist-info", ".egg-info", ".egg-link", ".pth")):
                    hasher.update(name.encode("utf-8", "surrogatepass") + b"\0")
        return hasher.hexdigest()

    def _listing(self, entry: str) -> frozenset[str]:
        found = self._listings.get(entry)
        if found is None:
            try:
                found = frozenset(os.listdir(entry))
            except OSError:
                found = frozenset()
            self._listings[entry] = found
        return found

    def _distributions(self, entry: str) -> dict[str, str]:
        """Normalized distribution name -> `<name>-<version>`, from the `.dist-info` directories of `entry`."""
        found = {}
        for name in self._listing(entry):
            if name.endswith(".dist-info") and "-" in name:
                distribution, _, version = name[: -len(".dist-info")].partition("-")
                found[distribution.lower().replace("-", "_").replace(".", "_")] = f"{distribution}-{version}"
        return found


# --- the lookup the project index uses -----------------------------------------------------------


class FrameworkClasses:
    """Classes of installed packages (source wins), else of the bundled facts, read on first use."""

    def __init__(self, paths: Iterable[str], store: Path | None = None, interpreter: str = "") -> None:
        self.environment = Environment(paths)
        self.interpreter = interpreter or sys.executable
        self._store = store
        self._modules: dict[str, ModuleFacts | None] = {}
        self._bundled: dict[str, Any] | None = None
        self._fingerprint: str | None = None
        # Every class read so far, by name (first read wins): where a field's class is looked up
        # (`NodeWithScore.node: BaseNode`) and a subclass declaring a written field is found.
        self.read: dict[str, ClassFacts] = {}
        # Top-level names of the linted tree's own modules and packages: never looked up (the tree's
        # classes are its own, and linting a framework's source must not read it from elsewhere).
        self.own_packages: frozenset[str] = frozenset()
        self._bundled_read: set[str] = set()  # modules read from the bundled facts
        # Of the modules the tree imports from: those read from the bundled facts, and those of a
        # framework the bundled facts know found neither there nor in the environment.
        self.from_bundled: set[str] = set()
        self.not_found: set[str] = set()

    @classmethod
    def for_environment(cls, python: str | None, store: Path | None) -> "FrameworkClasses":
        """The classes of the environment `python` names (see `environment_interpreter`)."""
        interpreter = environment_interpreter(python)
        return cls(interpreter_paths(interpreter, store), store, interpreter or sys.executable)

    @property
    def fingerprint(self) -> str:
        """A digest of what lookups can find: the environment's distributions and the bundled facts."""
        if self._fingerprint is None:
            try:
                bundled = hashlib.sha256(BUNDLED_FACTS.read_bytes()).hexdigest()
            except OSError:
                bundled = ""
            self._fingerprint = hashlib.sha256(f"{self.environment.fingerprint()}\0{bundled}".encode()).hexdigest()
        return self._fingerprint

    def class_facts(self, module: str, name: str, imported: bool = True) -> ClassFacts | None:
        """The class `from module import name` binds, if a class of an installed package or of the
        bundled facts; the classes of the module that defines it are read too. `imported`: the tree
        imports it (not a framework class's base), so where it was found is told (`note`)."""
        if module.split(".")[0] in self.own_packages:
            return None
        requested = self.module(module)
        if imported and module in self._bundled_read:
            self.from_bundled.add(module)
        elif imported and requested is None and self._is_framework(module):
            self.not_found.add(module)
        for _ in range(MAX_HOPS):
            if module.split(".")[0] in RECORD_LIBRARIES:
                return None  # `llama_index.core.bridge.pydantic.BaseModel` is pydantic's: a record base, not read
            facts = self.module(module)
            if facts is None:
                return None
            if name in facts.classes:
                return facts.classes[name]
            bound = facts.names.get(name)
            if bound is not None and bound[1]:
                module, name = bound
                continue
            star = next((s for s in facts.stars if (found := self.module(s)) is not None and self._binds(found, name)), None)
            if star is None:
                return None
            module = star
        return None

    def read_class(self, name: str) -> ClassFacts | None:
        """A class already read (from any module) by its name."""
        return self.read.get(name)

    def preload(self, imports: Iterable[tuple[str, str]]) -> None:
        """Read the classes `imports` ((module, name) pairs) name, where they come from a package the
        bundled facts know: so a run reports what it could not find even when workers lint the files."""
        known = {m.split(".")[0] for m in self._bundled_modules()}
        for module, name in sorted(set(imports)):
            if module.split(".")[0] in known:
                self.class_facts(module, name)

    def note(self) -> str | None:
        """One line on the imported modules not found in the environment, if any."""
        if not self.from_bundled and not self.not_found:
            return None
        missing = self.from_bundled | self.not_found
        count = len(missing)
        parts = [f"note: {count} imported module{'s' if count != 1 else ''} not found in the environment of {self.interpreter}"]
        if self.from_bundled:
            parts.append("bundled facts used for " + _listed(self.from_bundled))
        if self.not_found:
            parts.append("no facts for " + _listed(self.not_found))
        return "; ".join(parts) + " (see --python)"

    def module(self, module: str) -> ModuleFacts | None:
        """What `module` declares, from the environment, else from the bundled facts; read once."""
        if module in self._modules:
            return self._modules[module]
        self._modules[module] = None  # a module star-importing itself, or an import cycle
        found = self.environment.find(module)
        facts = self._from_source(module, found) if found is not None else None
        if facts is None:
            bundled = self._bundled_modules().get(module)
            if bundled is not None:
                facts = decode_module(bundled)
                self._bundled_read.add(module)
        if facts is not None:
            for class_name, facts_of_class in facts.classes.items():
                self.read.setdefault(class_name, facts_of_class)
        self._modules[module] = facts
        return facts

    def _is_framework(self, module: str) -> bool:
        """A module of a package the bundled facts know (so its absence is worth telling)."""
        top = module.split(".")[0]
        return any(m.split(".")[0] == top for m in self._bundled_modules())

    def _binds(self, facts: ModuleFacts, name: str) -> bool:
        """`facts` (a star-imported module) defines or re-exports `name` as its `*` exports."""
        if not facts.exported(name):
            return False
        return name in facts.classes or name in facts.names or bool(facts.stars)

    def _from_source(self, module: str, found: ModuleFile) -> ModuleFacts | None:
        """The module's facts: kept in the store under its distribution and version, else read now."""
        kept = self._store / self.environment.source_key(found) / f"{module}.json" if self._store is not None else None
        if kept is not None:
            try:
                return decode_module(json.loads(kept.read_text(encoding="utf-8")))
            except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
                pass  # not kept yet, or damaged: read again
        try:
            source = Path(found.path).read_text(encoding="utf-8")
            facts = module_facts(source, module, found.path, found.is_package)
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        if kept is not None:
            _write_json(kept, encode_module(facts))
        return facts

    def _bundled_modules(self) -> dict[str, Any]:
        if self._bundled is None:
            try:
                data = json.loads(BUNDLED_FACTS.read_text(encoding="utf-8"))
                self._bundled = data["modules"] if data.get("format") == FACTS_FORMAT else {}
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                self._bundled = {}
        return self._bundled


def _listed(modules: set[str], limit: int = 6) -> str:
    ordered = sorted(modules)
    shown = ", ".join(ordered[:limit])
    return shown + (f" and {len(ordered) - limit} more" if len(ordered) > limit else "")
