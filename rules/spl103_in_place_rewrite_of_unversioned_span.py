"""SPL103: content rewritten in place on a span class that has an id but neither version nor hash."""

from __future__ import annotations

from rules.base import Invalid, Valid
from rules.rewrites import ContentWrite, RewriteRule


class InPlaceRewriteOfUnversionedSpan(RewriteRule):
    code = "SPL103"
    name = "in-place-rewrite-of-unversioned-span"
    summary = "Content rewritten in place on a span that has an id but no version or hash"
    message = "Content rewritten in place on a span that has an id but no version or hash"
    docs = """
## What it does
Finds in-place content writes (the same forms as SPL101) on a span whose class, defined in the
linted tree, declares an id field but neither a version field nor a content hash (stored or
computed). Writes that also give the span a new id in the same function are copy-on-rewrite and are
not reported.

## Why is this bad?
Nothing keyed on the span's id can notice the change: there is no version to compare and no hash to
check. Memory blocks whose `value` is replaced in place and chat messages whose `content` is
rewritten while keeping their `id` are typical: caches, embeddings and citations keyed on the id
now describe text that no longer exists.

## Example
```python
@dataclass
class Message:
    id: str
    content: str

def redact(message: Message) -> None:
    message.content = scrub(message.content)
```

## Use instead
```python
def redact(message: Message) -> Message:
    return Message(id=new_id(), content=scrub(message.content))
```
or add a `version` field to the class and bump it on every rewrite.

## Fix safety
No automatic fix: copy-on-rewrite changes the callers, and adding a field changes the class.
"""
    valid = [
        Valid("class Message:\n    def __init__(self, id, content):\n        self.id = id\n        self.content = content\n\ndef build(id):\n    message = Message(id, '')\n    message.content = 'x'\n    return message\n"),
    ]
    invalid = [
        Invalid("class Message:\n    def __init__(self, id, content):\n        self.id = id\n        self.content = content\n\ndef redact(message: Message):\n    message.content = scrub(message.content)\n", line=7, column=5),
    ]

    def check(self, write: ContentWrite) -> None:
        span_class = write.span_class
        if span_class is None or span_class.version_fields or span_class.hash_fields:
            return
        if write.copy is None and self.reads_field(write, span_class.id_fields) and self._rekeys(write):
            return
        field = f"`{span_class.id_fields[0]}`"
        self.report(
            write.statement,
            f"{write.describe()} rewritten in place; `{span_class.name}` keeps its {field} and has no version or hash",
        )

    def _rekeys(self, write: ContentWrite) -> bool:
        assert write.span_class is not None
        return self.covered(write, write.span_class.id_fields, (), "")
