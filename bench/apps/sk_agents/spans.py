"""The agent's context buffer: spans of text the planner works from."""

from __future__ import annotations

import hashlib
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterator


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class ContextSpan:
    span_id: str
    text: str
    role: str = "user"
    source: str = "ingest"
    version: int = 0
    content_hash: str = ""
    created_at: float = field(default_factory=time.time)
    tombstoned_at: float | None = None
    superseded_by: str | None = None
    parent_ids: tuple[str, ...] = ()
    is_summary: bool = False
    token_offsets: list[tuple[int, int]] = field(default_factory=list)
    embedding: list[float] | None = None

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.text)

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.span_id, self.version, self.content_hash)

    @property
    def alive(self) -> bool:
        return self.tombstoned_at is None


class SpanStore:
    def __init__(self) -> None:
        self._spans: dict[str, ContextSpan] = {}
        self._holders: dict[str, set[str]] = defaultdict(set)

    def __iter__(self) -> Iterator[ContextSpan]:
        return iter(list(self._spans.values()))

    def __contains__(self, span_id: object) -> bool:
        return span_id in self._spans

    def add(self, span: ContextSpan) -> ContextSpan:
        self._spans[span.span_id] = span
        return span

    def get(self, span_id: str) -> ContextSpan:
        return self._spans[span_id]

    def find(self, span_id: str) -> ContextSpan | None:
        return self._spans.get(span_id)

    def live(self) -> list[ContextSpan]:
        return [s for s in self._spans.values() if s.alive]

    def tombstones(self) -> list[ContextSpan]:
        return [s for s in self._spans.values() if not s.alive]

    def hold(self, span_id: str, holder: str) -> None:
        self._holders[span_id].add(holder)

    def release(self, span_id: str, holder: str) -> None:
        self._holders[span_id].discard(holder)

    def holders(self, span_id: str) -> frozenset[str]:
        return frozenset(self._holders.get(span_id, ()))

    def replace_text(self, span_id: str, new_text: str, *, op: str) -> ContextSpan:
        span = self._spans[span_id]
        span.text = new_text
        span.version += 1
        span.content_hash = digest(new_text)
        span.source = f"rewrite:{op}"
        span.token_offsets = []
        span.embedding = None
        return span

    def fork(self, span_id: str, new_text: str, *, op: str) -> ContextSpan:
        old = self._spans[span_id]
        new = ContextSpan(
            span_id=f"{old.span_id}.{op}.{old.version + 1}",
            text=new_text,
            role=old.role,
            source=f"rewrite:{op}",
            version=old.version + 1,
            parent_ids=(old.span_id,),
            is_summary=old.is_summary or op == "summarize",
        )
        old.tombstoned_at = time.time()
        old.superseded_by = new.span_id
        self._spans[new.span_id] = new
        return new

    def discard(self, span_id: str) -> ContextSpan | None:
        self._holders.pop(span_id, None)
        return self._spans.pop(span_id, None)
