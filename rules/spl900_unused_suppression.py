"""SPL900: a spanlint suppression comment that suppresses nothing or names no rule.

The engine computes this rule after all the others (it needs their findings); this class carries
its metadata, documentation and examples.
"""

from rules.base import Invalid, Rule, Valid


class UnusedSuppression(Rule):
    code = "SPL900"
    name = "unused-suppression"
    summary = "Suppression comment that suppresses nothing or names no rule"
    message = "Unused suppression"
    severity = "warn"
    fix_applicability = "safe"
    default_enabled = False
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
        Invalid("x = 1  # noqa: SPL999\n", line=1, column=8, fixed="x = 1\n"),
        Invalid("x = 1  # noqa: E501, SPL999\n", line=1, column=8, fixed="x = 1  # noqa: E501\n"),
        Invalid("# spanlint: ignore[SPL999]\nx = 1\n", line=1, column=1, fixed="x = 1\n"),
        Invalid("x = 1  # type: ignore  # spanlint: ignore\n", line=1, column=24, fixed="x = 1  # type: ignore\n"),
    ]
