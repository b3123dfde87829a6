"""A rule's fix (a tree edit) as the text edits it makes: comments and spacing are kept."""

from __future__ import annotations

import difflib
from typing import Iterable

from lint.diagnostics import Edit, FixSummary, Location
from rules.base import Fix
from rules.libcst_backend import cst


def apply_fix(module: cst.Module, fix: Fix) -> str:
    """The source of `module` with `fix` applied (a tree edit: comments and spacing kept)."""
    replacements = dict(fix.replacements)

    class Replacer(cst.CSTTransformer):  # defined here: a module-level subclass would load LibCST on import
        def on_leave(self, original_node, updated_node):  # type: ignore[no-untyped-def]
            return replacements.get(original_node, updated_node)

    return module.visit(Replacer()).code


def fix_summary(module: cst.Module, fix: Fix) -> FixSummary:
    """`fix` as reported: its message, safety and the text edits it makes to `module`'s source."""
    return FixSummary(fix.message, fix.applicability, tuple(text_edits(module.code, apply_fix(module, fix))))


def text_edits(before: str, after: str) -> Iterable[Edit]:
    """The line-level edits that turn `before` into `after`."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            yield Edit("".join(new[j1:j2]), Location(i1 + 1, 1), Location(i2 + 1, 1))


