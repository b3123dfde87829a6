"""A rule's fix (a tree edit) as the text edits it makes: comments and spacing are kept."""

from __future__ import annotations

import bisect
import difflib
import re
from typing import TYPE_CHECKING, Iterable, Mapping

from spanlint.diagnostics import Edit, FixSummary, Location
from spanlint.rules.base import Fix
from spanlint.rules.libcst_backend import cst

if TYPE_CHECKING:
    from libcst.metadata import CodeRange


def apply_fix(module: cst.Module, fix: Fix) -> str:
    """The source of `module` with `fix` applied (a tree edit: comments and spacing kept)."""
    replacements = dict(fix.replacements)

    class Replacer(cst.CSTTransformer):  # defined here: a module-level subclass would load LibCST on import
        def on_leave(self, original_node, updated_node):  # type: ignore[no-untyped-def]
            return replacements.get(original_node, updated_node)

    return module.visit(Replacer()).code


def fix_summary(module: cst.Module, fix: Fix, statements: TopLevel | None = None) -> FixSummary:
    """`fix` as reported: its message, safety and the text edits it makes to `module`'s source."""
    return FixSummary(fix.message, fix.applicability, tuple(_fix_edits(module, fix, statements)))


def _fix_edits(module: cst.Module, fix: Fix, statements: TopLevel | None) -> Iterable[Edit]:
    """The line edits of `fix`: made from the one top-level statement it changes when `statements`
    can tell which (the cost of a fix then does not grow with the file), else from the whole module."""
    index = statements.holding(fix.replacements) if statements is not None else None
    if index is None:
        yield from text_edits(module.code, apply_fix(module, fix))
        return
    alone = module.with_changes(header=(), body=(module.body[index],), footer=(), has_trailing_newline=True)
    offset = statements.starts[index] - 1
    for edit in text_edits(alone.code, apply_fix(alone, fix)):
        yield Edit(edit.content, Location(edit.location.line + offset, 1), Location(edit.end_location.line + offset, 1))


# Characters `str.splitlines` breaks lines at that LibCST does not (fix edits count `splitlines` lines).
_OTHER_LINE_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


class TopLevel:
    """The lines where a module's top-level statements start (each with its leading blank and comment
    lines), to find which statement a fix changes."""

    def __init__(self, module: cst.Module, positions: Mapping[cst.CSTNode, CodeRange]) -> None:
        self._positions = positions
        line = 1 + sum(len(module.code_for_node(empty).splitlines()) for empty in module.header)
        self.starts = []
        for statement in module.body:
            self.starts.append(line)
            line += len(module.code_for_node(statement).splitlines())
        self.starts.append(line)  # the footer's first line

    @classmethod
    def of(cls, module: cst.Module, source: str, positions: Mapping[cst.CSTNode, CodeRange]) -> TopLevel | None:
        """None for a source whose lines LibCST and `splitlines` count differently."""
        return None if _OTHER_LINE_BREAKS.search(source) else cls(module, positions)

    def holding(self, nodes: Iterable[cst.CSTNode]) -> int | None:
        """The index of the top-level statement that holds every node; None when not one statement does."""
        found = set()
        for node in nodes:
            where = self._positions.get(node) if not isinstance(node, cst.Module) else None
            if where is None:
                return None
            found.add(bisect.bisect_right(self.starts, where.start.line) - 1)
            if len(found) > 1:
                return None
        index = found.pop() if found else None
        return index if index is not None and 0 <= index < len(self.starts) - 1 else None


def text_edits(before: str, after: str) -> Iterable[Edit]:
    """The line-level edits that turn `before` into `after`."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            yield Edit("".join(new[j1:j2]), Location(i1 + 1, 1), Location(i2 + 1, 1))


