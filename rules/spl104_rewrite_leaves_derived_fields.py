"""SPL104: content rewritten in place while embeddings, offsets or token counts of the old text stay."""

from __future__ import annotations

import re

from rules.base import Invalid, Valid
from rules.rewrites import ContentWrite, RewriteRule


class RewriteLeavesDerivedFields(RewriteRule):
    code = "SPL104"
    name = "rewrite-leaves-derived-fields"
    summary = "Span content rewritten in place while its derived fields still describe the old text"
    message = "Span content rewritten in place while its derived fields still describe the old text"
    docs = """
## What it does
Finds in-place content writes (the same forms as SPL101) on a span whose class declares fields
derived from the content — an embedding or vector, start/end character offsets, token counts — when
the function neither resets nor reassigns any of those fields on that span.

## Why is this bad?
The span now carries an embedding, offsets or a token count of text it no longer holds: retrieval
ranks it by the old text, citations point at the wrong characters, budgets are wrong. LlamaIndex's
`TextNode.set_content` and the node postprocessors that call it do exactly this.

## Example
```python
def shorten(node: TextNode) -> None:
    node.text = node.text[:500]
```

## Use instead
```python
def shorten(node: TextNode) -> None:
    node.text = node.text[:500]
    node.embedding = None
    node.start_char_idx = node.end_char_idx = None
```

## Fix safety
No automatic fix: whether to recompute or to clear a derived field is the project's choice.
"""
    valid = [
        Valid("class Chunk:\n    def __init__(self, id, text):\n        self.id = id\n        self.text = text\n        self.embedding = None\n\ndef shorten(chunk: Chunk):\n    chunk.text = chunk.text[:500]\n    chunk.embedding = None\n"),
    ]
    invalid = [
        Invalid("class Chunk:\n    def __init__(self, id, text):\n        self.id = id\n        self.text = text\n        self.embedding = None\n\ndef shorten(chunk: Chunk):\n    chunk.text = chunk.text[:500]\n", line=8, column=5),
    ]

    def check(self, write: ContentWrite) -> None:
        span_class = write.span_class
        if span_class is None or not span_class.derived_fields:
            return
        code = self.function_code()
        owner = re.escape(write.owner_code)
        for field in span_class.derived_fields:
            if re.search(rf"{owner}\.{re.escape(field)}\s*(?:[-+*/]?=(?!=)|\.clear\()", code):
                return
        left = ", ".join(f"`{f}`" for f in span_class.derived_fields)
        self.report(write.statement, f"{write.describe()} rewritten in place; {left} still describe the old text")
