"""What a function of the linted tree does to a context for SPL401, summarised once in the project pass.

A helper *records* when its body calls a decision log's record method (`self.decision_log.record(...)`,
`audit_log.append(...)`); it *prunes* the containers, rooted at one of its parameters (`self`
included), that it removes items from (`del spans[sid]`, `self._spans.pop(0)`, `.remove`, `.clear`,
`ctx.messages[:] = ...`) or tombstones (`spans[sid].tombstoned = True`). A call of a helper that
prunes without recording is a removal at the call; a call of one that records is a record.
"""

from __future__ import annotations

import ast
import re

from spanlint.rules.names import REMOVING_METHODS, name_parts
from spanlint.rules.prescan import alternation, child_nodes, match_lines
from runtime_guard.vocabulary import Vocabulary

_LINES: dict[Vocabulary, tuple[re.Pattern[str], re.Pattern[str]]] = {}


def prune_lines(source: str, vocabulary: Vocabulary) -> list[int]:
    """The lines (sorted) that may remove, tombstone or record: only functions spanning one are summarised.

    Decision-log names are matched in any case, on the lower-cased text (a case-insensitive
    alternation scans ~3× slower, and this runs on every file of the project pass).
    """
    patterns = _LINES.get(vocabulary)
    if patterns is None:
        methods = alternation(REMOVING_METHODS)
        flags = alternation(vocabulary.tombstone_flags)
        tombstone = rf"|\.(?:{flags})\s*=(?!=)" if vocabulary.tombstone_flags else ""
        logs = alternation(w.lower() for w in vocabulary.decision_log_names)
        # `d(?<!\wd)el\b` is `\bdel\b` starting with a literal, so the search skips to each `d`.
        patterns = _LINES[vocabulary] = (
            re.compile(rf"d(?<!\wd)el\b|\.(?:{methods})\(|\[:\]\s*={tombstone}"), re.compile(logs),
        )
    removals, logs_pattern = patterns
    return sorted({*match_lines(source, removals), *match_lines(source.lower(), logs_pattern)})


def prune_effects(function: ast.FunctionDef | ast.AsyncFunctionDef, vocabulary: Vocabulary) -> tuple[bool, frozenset[str]]:
    """(records, pruned containers as dotted chains rooted at a parameter: `spans`, `self._spans`)."""
    args = function.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    records = False
    pruned: set[str] = set()
    for node in _own_nodes(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = node.func.attr
            if method in vocabulary.record_methods and _is_log(node.func.value, vocabulary):
                records = True
            elif method in REMOVING_METHODS:
                pruned.update(_chain(node.func.value, params))
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                if isinstance(target, ast.Subscript):
                    pruned.update(_chain(target.value, params))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice) and target.slice.lower is None \
                        and target.slice.upper is None:
                    pruned.update(_chain(target.value, params))  # `spans[:] = kept`
                elif isinstance(target, ast.Attribute) and target.attr in vocabulary.tombstone_flags and _is_true(node.value) \
                        and isinstance(target.value, ast.Subscript):
                    pruned.update(_chain(target.value.value, params))  # `spans[sid].tombstoned = True`
    return records, frozenset(pruned)


def _own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef):
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            pending.extend(child_nodes(node))


def _chain(node: ast.expr, params: set[str]) -> list[str]:
    """`self._spans` -> ["self._spans"], `spans` -> ["spans"] when rooted at a parameter; else []."""
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in params and (names or node.id != "self"):
        return [".".join([node.id, *reversed(names)])]
    return []


def _is_log(node: ast.expr, vocabulary: Vocabulary) -> bool:
    while isinstance(node, ast.Attribute):
        if _log_name(node.attr, vocabulary):
            return True
        node = node.value
    return isinstance(node, ast.Name) and _log_name(node.id, vocabulary)


def _log_name(name: str, vocabulary: Vocabulary) -> bool:
    parts = name_parts(name)
    return any(
        parts[i:i + len(log)] == log
        for log in (name_parts(w) for w in vocabulary.decision_log_names) if log
        for i in range(len(parts))
    )


def _is_true(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is True

