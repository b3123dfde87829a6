"""The project-wide pass: which classes are spans and which functions bump, rehash or check.

It reads every file of the linted tree once with the standard `ast` module (several times faster
than a LibCST parse) and keeps only small, picklable summaries, so it can be cached per file and
merged cheaply. Rules ask `ProjectIndex`; they never re-derive these facts.
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass, field
from typing import Iterable

from runtime_guard.vocabulary import Vocabulary

RECORD_DECORATORS = frozenset({"dataclass", "define", "frozen", "mutable", "attrs", "s", "dataclasses.dataclass"})
RECORD_BASES = frozenset({"BaseModel", "NamedTuple", "TypedDict", "Model", "Struct"})
# Syntax trees nested deeper than this are not linted: LibCST's native parser overflows its stack
# on some 5,000-deep expressions and takes the process down. Real code nests about 100 deep at most.
MAX_NESTING = 1000


@dataclass(frozen=True)
class ClassFacts:
    """What one class statement declares itself, before its bases are taken into account."""

    name: str
    declared: frozenset[str]
    properties: frozenset[str]
    bases: tuple[str, ...]
    is_record: bool
    path: str = ""
    line: int = 0


@dataclass(frozen=True)
class SpanClass:
    """A class of the linted tree with the fields it declares or inherits, sorted by role."""

    name: str
    fields: frozenset[str]
    id_fields: tuple[str, ...]
    content_fields: tuple[str, ...]
    version_fields: tuple[str, ...]
    hash_fields: tuple[str, ...]
    hash_is_property: bool
    derived_fields: tuple[str, ...]
    is_record: bool
    path: str = ""
    line: int = 0

    @property
    def is_span(self) -> bool:
        """A span declares an id and a content field."""
        return bool(self.id_fields and self.content_fields)

    @property
    def version_field(self) -> str | None:
        return self.version_fields[0] if self.version_fields else None

    @property
    def stored_hash_field(self) -> str | None:
        return self.hash_fields[0] if self.hash_fields and not self.hash_is_property else None


@dataclass(frozen=True)
class HelperEffects:
    """What a function of the linted tree does to the parameters it is given (by position and name)."""

    params: tuple[str, ...]
    bumps: frozenset[str] = frozenset()
    rehashes: frozenset[str] = frozenset()
    checks: bool = False


@dataclass
class FileSummary:
    """The project-wide facts one file contributes."""

    classes: dict[str, ClassFacts] = field(default_factory=dict)
    helpers: dict[str, HelperEffects] = field(default_factory=dict)
    # (reason, line, column) when the standard parser rejects the file.
    syntax_error: tuple[str, int, int] | None = None


@dataclass
class ProjectIndex:
    """Classes and helper effects of the whole linted tree, keyed by unqualified name."""

    vocabulary: Vocabulary
    classes: dict[str, ClassFacts] = field(default_factory=dict)
    helpers: dict[str, HelperEffects] = field(default_factory=dict)
    _resolved: dict[str, SpanClass | None] = field(default_factory=dict, repr=False)

    @classmethod
    def merge(cls, vocabulary: Vocabulary, summaries: Iterable[FileSummary]) -> "ProjectIndex":
        index = cls(vocabulary)
        for summary in summaries:
            index.add(summary)
        return index

    def add(self, summary: FileSummary) -> None:
        """Add one file's facts; on a name defined twice, the first definition seen wins."""
        for name, facts in summary.classes.items():
            self.classes.setdefault(name, facts)
        for name, helper in summary.helpers.items():
            self.helpers.setdefault(name, helper)
        self._resolved.clear()

    def class_named(self, name: str | None) -> SpanClass | None:
        """The class named `name` with its inherited fields, if the tree defines it."""
        if not name:
            return None
        if name not in self._resolved:
            self._resolved[name] = self._resolve(name)
        return self._resolved[name]

    def span_class(self, name: str | None) -> SpanClass | None:
        """The class named `name` if it is a span class (declares or inherits an id and a content field)."""
        found = self.class_named(name)
        return found if found is not None and found.is_span else None

    def _resolve(self, name: str) -> SpanClass | None:
        facts = self.classes.get(name)
        if facts is None:
            return None
        declared: set[str] = set()
        properties: set[str] = set()
        is_record = False
        seen: set[str] = set()
        pending = [name]
        while pending:
            current = self.classes.get(pending.pop())
            if current is None or current.name in seen:
                continue
            seen.add(current.name)
            declared |= current.declared
            properties |= current.properties - current.declared
            is_record = is_record or current.is_record
            pending.extend(current.bases)
        properties -= declared
        vocabulary = self.vocabulary
        fields_ = declared | properties
        hash_fields = tuple(f for f in vocabulary.hash_fields if f in fields_)
        return SpanClass(
            name=name,
            fields=frozenset(fields_),
            id_fields=tuple(f for f in vocabulary.id_fields if f in fields_),
            content_fields=tuple(f for f in vocabulary.content_fields if f in declared),
            version_fields=tuple(f for f in vocabulary.version_fields if f in fields_),
            hash_fields=hash_fields,
            hash_is_property=bool(hash_fields) and all(f in properties for f in hash_fields),
            derived_fields=tuple(f for f in vocabulary.derived_fields if f in fields_),
            is_record=is_record,
            path=facts.path,
            line=facts.line,
        )


def summarize_source(source: str, vocabulary: Vocabulary, path: str = "") -> FileSummary:
    """The project-wide facts of one file; an unparsable file contributes only its syntax error."""
    try:
        with warnings.catch_warnings():  # the linted code's SyntaxWarnings are not spanlint's to print
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except SyntaxError as error:
        return FileSummary(syntax_error=(f"syntax error: {error.msg}", error.lineno or 1, error.offset or 1))
    except (ValueError, RecursionError, MemoryError) as error:
        reason = "nesting too deep to parse" if not isinstance(error, ValueError) else str(error)
        return FileSummary(syntax_error=(reason, 1, 1))
    depth = nesting_depth(tree)
    if depth > MAX_NESTING:
        reason = f"nesting too deep: the syntax tree is {depth:,} levels deep, over the limit of {MAX_NESTING:,}"
        return FileSummary(syntax_error=(reason, 1, 1))
    summary = FileSummary()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            summary.classes.setdefault(node.name, _class_facts(node, path))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            effects = _helper_effects(node, vocabulary)
            if effects is not None:
                summary.helpers.setdefault(node.name, effects)
    return summary


def nesting_depth(tree: ast.AST) -> int:
    """How many levels deep `tree` nests (without recursion, so any depth is measured)."""
    deepest = 0
    pending = [(tree, 1)]
    while pending:
        node, depth = pending.pop()
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _class_facts(node: ast.ClassDef, path: str) -> ClassFacts:
    declared: set[str] = set()
    properties: set[str] = set()
    for statement in node.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            declared.add(statement.target.id)
        elif isinstance(statement, ast.Assign):
            declared.update(t.id for t in statement.targets if isinstance(t, ast.Name))
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(_decorator_name(d) in ("property", "cached_property") for d in statement.decorator_list):
                properties.add(statement.name)
            elif statement.name in ("__init__", "__post_init__"):
                declared.update(_self_attributes(statement))
    base_names = tuple(_decorator_name(b) for b in node.bases)
    is_record = bool(
        set(base_names) & RECORD_BASES
        or {_decorator_name(d) for d in node.decorator_list} & RECORD_DECORATORS
    )
    return ClassFacts(node.name, frozenset(declared), frozenset(properties), base_names, is_record, path, node.lineno)


def _self_attributes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(function):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                names.add(target.attr)
    return names


def _helper_effects(function: ast.FunctionDef | ast.AsyncFunctionDef, vocabulary: Vocabulary) -> HelperEffects | None:
    args = function.args
    params = tuple(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
    if not params:
        return None
    param_set = set(params)
    bumps: set[str] = set()
    rehashes: set[str] = set()
    checks = False
    for node in ast.walk(function):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                owner, attr = _param_attribute(target, param_set)
                if owner is None:
                    continue
                if attr in vocabulary.version_fields:
                    bumps.add(owner)
                elif attr in vocabulary.hash_fields:
                    rehashes.add(owner)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner, attr = _param_attribute(node.func, param_set)
            if owner is not None and attr in vocabulary.bump_methods:
                bumps.add(owner)
            elif owner is not None and attr in vocabulary.rehash_methods:
                rehashes.add(owner)
        elif isinstance(node, ast.Compare) and _compares_version_or_hash(node, vocabulary):
            checks = True
    if not (bumps or rehashes or checks):
        return None
    return HelperEffects(params, frozenset(bumps), frozenset(rehashes), checks)


def _param_attribute(node: ast.expr, params: set[str]) -> tuple[str | None, str]:
    """(`p`, `attr`) for `p.attr` or `p.x.attr` where `p` is a parameter; else (None, "")."""
    if not isinstance(node, ast.Attribute):
        return None, ""
    base = node.value
    while isinstance(base, ast.Attribute):
        base = base.value
    if isinstance(base, ast.Name) and base.id in params:
        return base.id, node.attr
    return None, ""


def _compares_version_or_hash(node: ast.Compare, vocabulary: Vocabulary) -> bool:
    watched = set(vocabulary.version_fields) | set(vocabulary.hash_fields)
    operands = [node.left, *node.comparators]
    return any(isinstance(o, ast.Attribute) and o.attr in watched for o in operands)
