"""SPL900: a spanlint suppression comment that suppresses nothing or names no rule.

A file-level rule: it runs after all the others, on the suppressions the engine found unused.
"""

from __future__ import annotations

from typing import Any, Sequence

from spanlint.rules.base import Fix, Invalid, Rule, Valid
from spanlint.rules.libcst_backend import cst, positions
from spanlint.rules import traversal


class UnusedSuppression(Rule):
    code = "SPL900"
    name = "unused-suppression"
    summary = "Suppression comment that suppresses nothing or names no rule"
    message = "Unused suppression"
    help = "Remove the unused suppression"
    severity = "warn"
    fix_applicability = "safe"
    default_enabled = False
    file_pass = "suppressions"
    docs = """
## What it does
Reports a `# noqa: SPL...` or `# spanlint: ignore[...]` comment that suppresses no finding on its
line, or that names a code or rule name spanlint does not know. Only spanlint's part of a comment
is checked: a bare `# noqa` and other tools' codes (`# noqa: E501`) are left alone, and so are
codes of rules that are not enabled for the file.

This rule is off by default; select it with `--extend-select SPL900`.

## Why is this bad?
A suppression outlives the finding it silenced: after the code is fixed, the comment stays and
will hide the next real finding on that line. A misspelt code suppresses nothing at all.

## Example
```python
def compress(span):
    span.content = span.content[:100]
    span.version += 1  # noqa: SPL101
```

## Use instead
```python
def compress(span):
    span.content = span.content[:100]
    span.version += 1
```

## Fix safety
The fix is safe: it removes only the unused or unknown codes, or the whole comment when nothing
else is left in it, and keeps the rest of the line as it was.
"""
    valid = [
        Valid("x = 1  # noqa\n"),
        Valid("x = 1  # noqa: E501\n"),
        # The examples run with only SPL900 enabled: suppressions of rules that did not run are kept.
        Valid("x = 1  # noqa: SPL101\n"),
    ]
    invalid = [
        Invalid("x = 1  # noqa: SPL999\n", line=1, column=8, fixed="x = 1\n", message="Unused suppression (unknown: `SPL999`)"),
        Invalid("x = 1  # noqa: E501, SPL999\n", line=1, column=8, fixed="x = 1  # noqa: E501\n", message="Unused suppression (unknown: `SPL999`)", help="Remove `SPL999` from the suppression"),
        Invalid("# spanlint: ignore[SPL999]\nx = 1\n", line=1, column=1, fixed="x = 1\n", message="Unused suppression (unknown: `SPL999`)"),
        Invalid("x = 1  # type: ignore  # spanlint: ignore\n", line=1, column=24, fixed="x = 1  # type: ignore\n", message="Unused blanket `# spanlint: ignore`"),
    ]

    def check_suppressions(self, unused: Sequence[Any]) -> None:
        """Report each of the file's `unused` suppressions (`lint.suppression.UnusedSuppression`s)
        where its directive stands, with the fix that removes what is unused in it."""
        comments = _CommentFinder.locate(self.context.module)
        for found in unused:
            suppression = found.suppression
            column = suppression.column - 1
            fix = next(
                (
                    _remove_directive(found, column - start, comment, holder)
                    for start, comment, holder in comments.get(suppression.line, [])
                    if start <= column < start + len(comment.value)
                ),
                None,
            )
            place = (suppression.line, suppression.column, suppression.line, suppression.end_column)
            self.report(self.context.module, found.message, fix=fix, place=place)


class _CommentFinder(traversal.Visitor):
    """Every comment with the line node that holds it (a trailing comment or a comment line)."""

    def __init__(self) -> None:
        self.found: list[tuple[cst.Comment, cst.TrailingWhitespace | cst.EmptyLine]] = []

    def visit_TrailingWhitespace(self, node: cst.TrailingWhitespace) -> None:
        if node.comment is not None:
            self.found.append((node.comment, node))

    def visit_EmptyLine(self, node: cst.EmptyLine) -> None:
        if node.comment is not None:
            self.found.append((node.comment, node))

    @classmethod
    def locate(cls, module: cst.Module) -> dict[int, list[tuple[int, cst.Comment, cst.CSTNode]]]:
        """For each line, its comments as (0-based start column, comment, holder)."""
        finder = cls()
        traversal.visit(module, finder)
        if not finder.found:
            return {}
        found = positions(module)
        located: dict[int, list[tuple[int, cst.Comment, cst.CSTNode]]] = {}
        for comment, holder in finder.found:
            start = found[comment].start
            located.setdefault(start.line, []).append((start.column, comment, holder))
        return located


def _remove_directive(unused: Any, offset: int, comment: cst.Comment, holder: cst.CSTNode) -> Fix:
    """The tree edit that rewrites or removes one suppression directive inside `comment`."""
    text = comment.value
    end = offset + len(unused.suppression.text)
    if unused.replacement:
        message = "Remove " + ", ".join(f"`{s}`" for s in (*unused.unused, *unused.unknown)) + " from the suppression"
        new_text = text[:offset] + unused.replacement + text[end:]
    else:
        message = "Remove the unused suppression"
        new_text = text[:offset].rstrip()  # a reason written after the directive goes with it
    replacement: cst.CSTNode | cst.RemovalSentinel
    if new_text.strip("# \t"):
        replacement, target = comment.with_changes(value=new_text), comment
    elif isinstance(holder, cst.EmptyLine):
        replacement, target = cst.RemovalSentinel.REMOVE, holder
    else:
        replacement, target = holder.with_changes(whitespace=cst.SimpleWhitespace(""), comment=None), holder
    return Fix(message, "safe", {target: replacement})
