"""SPL101: span content rewritten in place without bumping its version."""

from __future__ import annotations

import libcst as cst

from rules.base import Invalid, ScopedRule, Valid


class InPlaceRewriteWithoutVersionBump(ScopedRule):
    code = "SPL101"
    name = "in-place-rewrite-without-version-bump"
    summary = "Span content rewritten in place without bumping its version"
    message = "Span content rewritten in place without bumping its version"
    docs = """
## What it does
Finds functions that write a span's content in place and keep its id, but do not bump its version.

## Why is this bad?
Everything derived from the span and keyed on its id is now stale, and nothing notices.

## Example
```python
def compress(span):
    span.content = shorten(span.content)
```

## Use instead
```python
def compress(span):
    span.content = shorten(span.content)
    span.version += 1
```

## Fix safety
No fix yet.
"""
    valid = [
        Valid("def compress(span):\n    span.content = shorten(span.content)\n    span.version += 1\n"),
        Valid("def parse(element):\n    element.text = element.text.strip()\n"),
    ]
    invalid = [
        Invalid("def compress(span):\n    span.content = shorten(span.content)\n", line=2, column=5),
    ]

    def visit_Assign(self, node: cst.Assign) -> None:
        if self.function is None:
            return
        for target in node.targets:
            written = target.target
            if (
                isinstance(written, cst.Attribute)
                and written.attr.value in self.context.vocabulary.content_fields
                and self.context.analysis.is_span_like(written.value, self.facts)
                and not self._bumps(written.value)
            ):
                self.report(node)

    def _bumps(self, owner: cst.BaseExpression) -> bool:
        assert self.function is not None
        owner_code = self.context.module.code_for_node(owner)
        versions = self.context.vocabulary.version_fields
        return any(f"{owner_code}.{v}" in self.context.module.code_for_node(self.function) for v in versions)
