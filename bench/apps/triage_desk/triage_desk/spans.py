"""The team's span store: conversation items with ids, versions and digests."""

from __future__ import annotations

import hashlib
import time
import uuid
from dataclasses import dataclass, field
from typing import Iterator, Optional


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class SpanRecord:
    span_id: str
    role: str
    content: str
    version: int = 0
    content_hash: str = ""
    produced_by: str = "ingest"
    embedding: Optional[list[float]] = None
    tombstoned_at: Optional[float] = None
    created_at: float = field(default_factory=time.time)

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.content)

    def as_input_item(self) -> dict:
        return {"role": self.role, "content": self.content, "id": self.span_id}


class SpanStore:
    """Holds every item of a conversation, addressable by id."""

    def __init__(self) -> None:
        self._spans: dict[str, SpanRecord] = {}
        self._order: list[str] = []

    def add_item(self, item: dict) -> SpanRecord:
        span_id = item.get("id") or f"sp_{uuid.uuid4().hex[:12]}"
        content = item.get("content")
        if not isinstance(content, str):
            content = str(content)
        record = SpanRecord(span_id=span_id, role=item.get("role", "user"), content=content)
        self._spans[span_id] = record
        self._order.append(span_id)
        return record

    def get(self, span_id: str) -> Optional[SpanRecord]:
        return self._spans.get(span_id)

    def live(self) -> Iterator[SpanRecord]:
        for span_id in self._order:
            span = self._spans.get(span_id)
            if span is not None and span.tombstoned_at is None:
                yield span

    def tombstones(self) -> list[SpanRecord]:
        return [s for s in self._spans.values() if s.tombstoned_at is not None]

    def rewrite(self, span_id: str, new_content: str, op: str) -> SpanRecord:
        span = self._spans[span_id]
        span.content = new_content
        span.version += 1
        span.content_hash = digest(new_content)
        span.produced_by = f"rewrite:{op}"
        span.embedding = None
        return span

    def supersede(self, span_id: str, new_content: str, op: str) -> SpanRecord:
        old = self._spans[span_id]
        replacement = SpanRecord(
            span_id=f"{span_id}~{old.version + 1}",
            role=old.role,
            content=new_content,
            version=old.version + 1,
            produced_by=f"rewrite:{op}",
        )
        old.tombstoned_at = time.time()
        self._spans[replacement.span_id] = replacement
        self._order[self._order.index(span_id)] = replacement.span_id
        return replacement

    def normalize_whitespace(self, span_id: str) -> None:
        span = self._spans[span_id]
        cleaned = "\n".join(line.rstrip() for line in span.content.splitlines()).strip()
        if cleaned != span.content:
            span.content = cleaned
            span.content_hash = digest(cleaned)

    def remove(self, span_id: str) -> Optional[SpanRecord]:
        if span_id in self._order:
            self._order.remove(span_id)
        return self._spans.pop(span_id, None)
