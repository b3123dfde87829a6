"""Stdlib-only pre-scans: can a file hold a candidate of a rule at all?

The project pass (`rules.project.summarize_source`) parses every file with the standard `ast`
module; the checks here run on that tree (or on the text) and record which candidate shapes a file
holds in `FileSummary.shapes`. A rule's `may_match_summary` skips a file without its shape, so
LibCST never parses it. Every check over-approximates what the rule's own visitor looks for: it
may let a file through that has no finding, never the reverse.
"""

from __future__ import annotations

import ast
import re
from typing import Iterable, Iterator

from runtime_guard.vocabulary import Vocabulary

# The shape of an in-place content write (SPL101-SPL104, `rules.rewrites.content_writes`).
CONTENT_WRITE = "content-write"

MUTATING_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"})
# Calls whose result is a fresh object (a copy), not the span the argument names.
COPY_CALLS = frozenset({"copy", "deepcopy", "model_copy", "_replace", "replace", "evolve", "with_changes", "clone"})
CONSTRUCTORS = frozenset({"__init__", "__post_init__", "__new__", "__attrs_post_init__", "model_post_init"})
VALIDATOR_DECORATORS = frozenset(
    {"validator", "root_validator", "model_validator", "field_validator", "post_load", "pre_load"}
)

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def may_have_writes(source: str, vocabulary: Vocabulary) -> bool:
    """Cheap text test: False only when `source` can hold no content write."""
    return _pattern(vocabulary).search(source) is not None


_PATTERNS: dict[Vocabulary, re.Pattern[str]] = {}


def _pattern(vocabulary: Vocabulary) -> re.Pattern[str]:
    found = _PATTERNS.get(vocabulary)
    if found is None:
        fields = "|".join(map(re.escape, vocabulary.content_fields))
        setters = "|".join(map(re.escape, vocabulary.content_setters))
        copies = "|".join(map(re.escape, COPY_CALLS))
        found = re.compile(
            rf"\.(?:{fields})\s*(?:[-+*/%|&^@]|//|<<|>>|\*\*)?=(?!=)"
            rf"|\.(?:{fields})\s*\[|\.(?:{fields})\.(?:{'|'.join(MUTATING_METHODS)})\("
            rf"|\.(?:{setters})\(|setattr\(|__setattr__\(|__dict__\s*\[|\b(?:{copies})\("
        )
        _PATTERNS[vocabulary] = found
    return found


def has_content_write(source: str, functions: Iterable[FunctionNode], vocabulary: Vocabulary) -> bool:
    """Some function of the file holds, in its own body, a statement shaped like a content write.

    The shapes are those `rules.rewrites.content_writes` lists (a write to `x.<content field>`, to an
    item of it or of `x.__dict__`, a mutating method on it, a content setter, `setattr`, a copy
    stored under a key), in the functions it looks at (not constructors or validators), before any
    span-likeness test.
    """
    if not may_have_writes(source, vocabulary):
        return False
    shapes = _WriteShapes(vocabulary)
    return any(not _exempt(function) and shapes.any_in(function) for function in functions)


def _exempt(function: FunctionNode) -> bool:
    """Constructors and validators: `content_writes` lists nothing in them."""
    if function.name in CONSTRUCTORS:
        return True
    for decorator in function.decorator_list:
        expr = decorator.func if isinstance(decorator, ast.Call) else decorator
        if _last_dotted_part(expr) in VALIDATOR_DECORATORS:
            return True
    return False


def _last_dotted_part(node: ast.expr) -> str | None:
    """`c` for `a.b.c` or `c` (a chain of names only), else None."""
    base = node
    while isinstance(base, ast.Attribute):
        base = base.value
    if not isinstance(base, ast.Name):
        return None
    return node.attr if isinstance(node, ast.Attribute) else node.id


def _own_nodes(function: FunctionNode) -> Iterator[ast.AST]:
    """The nodes of `function`'s body, not of the functions, classes and lambdas nested in it."""
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, _SCOPES):
            continue
        yield node
        pending.extend(ast.iter_child_nodes(node))


class _WriteShapes:
    def __init__(self, vocabulary: Vocabulary) -> None:
        self.fields = frozenset(vocabulary.content_fields)
        self.setters = frozenset(vocabulary.content_setters)

    def any_in(self, function: FunctionNode) -> bool:
        return any(self._is_write(node) for node in _own_nodes(function))

    def _is_write(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Assign):
            return any(
                self._is_target(target) or (
                    isinstance(target, ast.Subscript) and isinstance(node.value, ast.Call)
                    and _callee_name(node.value) in COPY_CALLS
                )
                for target in node.targets
            )
        if isinstance(node, ast.AugAssign) or (isinstance(node, ast.AnnAssign) and node.value is not None):
            return self._is_target(node.target)
        if isinstance(node, ast.Delete):
            targets = [e for t in node.targets for e in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t])]
            return any(isinstance(t, ast.Subscript) and self._is_target(t) for t in targets)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                return func.id == "setattr"
            if isinstance(func, ast.Attribute):
                return (
                    func.attr == "__setattr__" or func.attr in self.setters
                    or (func.attr in MUTATING_METHODS and self._is_content(func.value))
                )
        return False

    def _is_target(self, target: ast.expr) -> bool:
        if isinstance(target, ast.Subscript):
            container = target.value
            return isinstance(container, ast.Attribute) and (
                container.attr in self.fields or container.attr == "__dict__"
            )
        return self._is_content(target)

    def _is_content(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Attribute) and node.attr in self.fields


def _callee_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None
