"""Everything spanlint does to LibCST beyond its public API, fenced here, with the reason for each.

Checked against LibCST 1.1 to 1.9 (the range `pyproject.toml` pins; tests/rules/test_libcst_backend.py
checks the installed version is in it and that the internals are what this module expects). When
they are not (a LibCST outside that range), each function falls back to the public API: slower,
same findings.

- `cst`: LibCST loaded on first use. Importing it takes ~90 ms (it builds ~290 node dataclasses; ~45
  ms with their methods' code kept, below), a third of the 300 ms a pre-commit run of one file may
  take, and two files in three hold no rule candidate: they are never parsed. Modules that use LibCST
  write `from rules.libcst_backend import cst` instead of `import libcst as cst`; the package loads
  when an attribute of `cst` is first read (the standard library's `importlib.util.LazyLoader`, which
  puts the lazy module in `sys.modules["libcst"]`: `import libcst` anywhere reads the module's
  `__spec__`, which loads it). A process that imported LibCST already gets that module. While it
  loads, the methods `dataclasses` generates for its node classes are not compiled again from their
  text: their code objects are kept in a file beside spanlint's bytecode (`_DataclassCode`), which
  halves the import.
- `parse_module`: the parser's output is valid by construction (LibCST's source says as much), so
  the per-node validation (`CSTNode.__post_init__`, about a fifth of `parse_module`) is switched off
  while it parses.
- `child_fields`: the order in which LibCST visits a node's children, read from the constants of its
  private `_visit_and_replace_children` (`rules.traversal` walks trees without rebuilding them).
- `positions`: LibCST's `PositionProvider` run on its own. `MetadataWrapper.resolve` also makes a
  batched visit of the whole module for the batchable providers it was asked for, even when there
  are none: that visit rebuilds and re-validates every node and cost more than the positions
  themselves (about a tenth of a cold run).
- `run_with_deep_stack`: LibCST recurses once per level of the tree, in its native parser and in
  Python (visitors, metadata, code generation). Real files reach ~2,200 levels (the implicitly
  concatenated strings of the standard library's `pydoc_data/topics.py`), past the default recursion
  limit, so each file's LibCST work runs in a thread with a large stack and a raised recursion limit,
  both process-wide settings. Files nested deeper than `rules.project.MAX_NESTING` never reach
  LibCST (its native parser overflows the stack on them).
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import marshal
import os
import sys
import threading
from functools import lru_cache
from pathlib import Path
from types import CodeType, ModuleType
from typing import TYPE_CHECKING, Any, Callable, Mapping, TypeVar

if TYPE_CHECKING:
    from libcst.metadata import CodeRange

# The stack and recursion limit LibCST gets for one file (virtual memory: only what it touches is used).
LINT_STACK_BYTES = 512 * 1024 * 1024
LINT_RECURSION_LIMIT = 60_000


def _lazy(name: str) -> ModuleType:
    """The module `name`, imported now if it is already, else when one of its attributes is read
    (with the dataclass code of `_DataclassCode`)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None, f"{name} is not installed"
    loader = importlib.util.LazyLoader(_WithDataclassCode(spec.loader))
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


class _WithDataclassCode:
    """A loader that runs another one's `exec_module` with `_DataclassCode` (and is that loader for
    everything else)."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: Any) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        with _DataclassCode(_DATACLASS_CODE_FILE):
            self._loader.exec_module(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class _DataclassCode:
    """While LibCST loads, `dataclasses` compiles its generated methods (`__init__`, `__eq__`...) once
    per process from source text, about 600 of them, half of LibCST's import time (~50 ms of a
    pre-commit run of one file). In this context, `dataclasses`' own `exec` takes each text's code
    object from a file of them kept beside spanlint's bytecode (`__pycache__`, as trusted as
    spanlint's own code) and compiles only texts it does not hold: the same code, keyed by its
    exact text, so a file from another LibCST version only misses. When a text was missing, the file
    is written anew (atomically) with the texts this load used, unless bytecode is not written
    (`PYTHONDONTWRITEBYTECODE`, `PYTHONPYCACHEPREFIX`); a file that cannot be read or written is
    ignored.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.code: dict[str, CodeType] = {}  # what the file holds
        self.used: dict[str, CodeType] = {}  # what this load used: the file written anew holds these
        self.added = False

    def __enter__(self) -> _DataclassCode:
        try:
            loaded = marshal.loads(self.path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            loaded = None
        if isinstance(loaded, dict):
            self.code = {k: v for k, v in loaded.items() if isinstance(k, str) and isinstance(v, CodeType)}
        if "exec" not in vars(dataclasses):
            dataclasses.exec = self.exec  # type: ignore[attr-defined]  # a module global shadows the builtin
        return self

    def __exit__(self, *exc_info: object) -> None:
        if vars(dataclasses).get("exec") == self.exec:
            del dataclasses.exec  # type: ignore[attr-defined]
        if self.added and exc_info[0] is None and not (sys.dont_write_bytecode or sys.pycache_prefix):
            self._write()

    def exec(self, source: Any, globals: dict[str, Any] | None = None, locals: Mapping[str, Any] | None = None) -> None:
        """`exec`, with `source` (a text) compiled once: as `exec` compiles it (`dont_inherit`)."""
        if isinstance(source, str):
            code = self.code.get(source)
            if code is None:
                code = self.code[source] = compile(source, "<string>", "exec", dont_inherit=True)
                self.added = True
            self.used[source] = code
            source = code
        exec(source, globals, locals)

    def _write(self) -> None:
        temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            temporary.write_bytes(marshal.dumps(self.used))
            os.replace(temporary, self.path)
        except (OSError, ValueError):
            with contextlib.suppress(OSError):
                temporary.unlink()


_DATACLASS_CODE_FILE = Path(__file__).with_name("__pycache__") / f"dataclass-code.{importlib.util.MAGIC_NUMBER.hex()}.marshal"


if TYPE_CHECKING:
    import libcst as cst
else:
    cst = _lazy("libcst")


# --- parsing ---------------------------------------------------------------------------------------

def _no_validation(node: Any) -> None:
    """Stands in for `CSTNode.__post_init__` while the parser builds nodes."""


_parse_lock = threading.Lock()


def validation_can_be_skipped() -> bool:
    """LibCST validates nodes in a plain `CSTNode.__post_init__` method, which can be swapped."""
    return callable(vars(cst.CSTNode).get("__post_init__"))


def parse_module(source: str) -> cst.Module:
    """`cst.parse_module(source)`, without re-validating each node the parser builds.

    Validation is switched off only for the duration of the parse; the lock keeps one thread's parse
    from restoring it while another's runs. Nodes built outside a parse (fixes) are validated.
    """
    if not validation_can_be_skipped():
        return cst.parse_module(source)
    with _parse_lock:
        validate = cst.CSTNode.__post_init__
        cst.CSTNode.__post_init__ = _no_validation  # type: ignore[method-assign]
        try:
            return cst.parse_module(source)
        finally:
            cst.CSTNode.__post_init__ = validate  # type: ignore[method-assign]


# --- children --------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def child_fields(node_type: type) -> tuple[str, ...]:
    """The fields of `node_type` that hold its child nodes, in source order.

    That is the order in which LibCST's own `_visit_and_replace_children` visits them (dataclass
    field order differs: a `FunctionDef` declares `decorators` after `body`). Each visit there
    names its field as a string literal, and CPython keeps a function's constants in order of first
    appearance, so the field names among its constants are in visiting order (tests/rules/
    test_traversal.py checks this against the method's source for every node class). Without that
    method's code, the fields that may hold nodes, in dataclass order.
    """
    fields = getattr(node_type, "__dataclass_fields__", {})
    visiting = getattr(node_type, "_visit_and_replace_children", None)
    code = getattr(visiting, "__code__", None)
    if code is None or visiting is getattr(cst.CSTNode, "_visit_and_replace_children", None):
        return tuple(f.name for f in dataclasses.fields(node_type) if f.name in fields and _may_hold_nodes(f))
    found: dict[str, None] = {}
    for constant in code.co_consts:
        if type(constant) is str and constant in fields:
            found[constant] = None
    return tuple(found)


def _may_hold_nodes(field: dataclasses.Field) -> bool:  # type: ignore[type-arg]
    return "Literal" not in str(field.type) and field.type not in ("str", "bool", "int", str, bool, int)


def positions(module: cst.Module) -> Mapping[cst.CSTNode, CodeRange]:
    """The position of every node of `module` (LibCST's `PositionProvider`, without the empty batched
    visit `MetadataWrapper.resolve` adds; about the cost of the parse: computed only for files with
    findings)."""
    from libcst.metadata import MetadataWrapper, PositionProvider

    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    if not positions_can_be_computed_alone():
        return wrapper.resolve(PositionProvider)
    return PositionProvider()._gen(wrapper)


def positions_can_be_computed_alone() -> bool:
    """`PositionProvider` depends on no other provider and computes its mapping with `_gen(wrapper)`,
    as in the LibCST range pinned."""
    from libcst.metadata import PositionProvider

    return not PositionProvider.METADATA_DEPENDENCIES and callable(getattr(PositionProvider, "_gen", None))


# --- stack and recursion limit -----------------------------------------------------------------------

Result = TypeVar("Result")
_recursion_lock = threading.Lock()
_deep_threads = 0
_saved_recursion_limit = 0


def run_with_deep_stack(function: Callable[[], Result]) -> Result:
    """`function()` run in a thread with `LINT_STACK_BYTES` of stack and `LINT_RECURSION_LIMIT`.

    The recursion limit is process-wide: it is raised while any such thread runs and restored after
    the last one ends. An exception in `function` is raised here.
    """
    global _deep_threads, _saved_recursion_limit
    outcome: list[Result] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(function())
        except BaseException as error:  # noqa: BLE001 - handed back to the caller's thread
            failure.append(error)

    with _recursion_lock:
        if _deep_threads == 0:
            _saved_recursion_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_recursion_limit, LINT_RECURSION_LIMIT))
        _deep_threads += 1
    try:
        with _recursion_lock:  # the stack size, like the limit, is process-wide
            previous_stack = threading.stack_size(LINT_STACK_BYTES)
            try:
                thread = threading.Thread(target=run, name="spanlint-lint", daemon=True)
                thread.start()
            finally:
                threading.stack_size(previous_stack)
        thread.join()
    finally:
        with _recursion_lock:
            _deep_threads -= 1
            if _deep_threads == 0:
                sys.setrecursionlimit(_saved_recursion_limit)
    if failure:
        raise failure[0]
    return outcome[0]
