"""Context buffer shared by the flow, the crews and the tools."""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Literal
from uuid import uuid4

from pydantic import BaseModel, Field

SpanKind = Literal["user", "tool", "retrieval", "summary", "plan", "note"]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_span_id(prefix: str = "sp") -> str:
    return f"{prefix}_{uuid4().hex[:12]}"


class ContextSpan(BaseModel):
    id: str = Field(default_factory=new_span_id)
    kind: SpanKind = "note"
    content: str
    version: int = 0
    content_hash: str = ""
    produced_by: str = "ingest"
    source_ids: list[str] = Field(default_factory=list)
    turn: int = 0
    tombstoned: bool = False
    tombstoned_at: float | None = None
    superseded_by: str | None = None

    def model_post_init(self, __context: object) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.content)

    @property
    def ref(self) -> "SpanRef":
        return SpanRef(span_id=self.id, version=self.version, content_hash=self.content_hash)


class SpanRef(BaseModel, frozen=True):
    span_id: str
    version: int
    content_hash: str

    def matches(self, span: ContextSpan) -> bool:
        return (
            span.id == self.span_id
            and span.version == self.version
            and span.content_hash == self.content_hash
        )


class StaleSpanError(RuntimeError):
    pass


class ContextBuffer:
    def __init__(self, spans: Iterable[ContextSpan] = ()) -> None:
        self._spans: dict[str, ContextSpan] = {}
        self._lock = threading.RLock()
        for span in spans:
            self.add(span)

    def __contains__(self, span_id: object) -> bool:
        return span_id in self._spans

    def __iter__(self) -> Iterator[ContextSpan]:
        return iter(self.live())

    def __len__(self) -> int:
        return len(self._spans)

    def add(self, span: ContextSpan) -> ContextSpan:
        with self._lock:
            self._spans[span.id] = span
        return span

    def get(self, span_id: str) -> ContextSpan:
        try:
            return self._spans[span_id]
        except KeyError:
            raise StaleSpanError(f"span {span_id} is not in the buffer") from None

    def find(self, span_id: str) -> ContextSpan | None:
        return self._spans.get(span_id)

    def live(self) -> list[ContextSpan]:
        return [s for s in self._spans.values() if not s.tombstoned]

    def tombstones(self) -> list[ContextSpan]:
        return [s for s in self._spans.values() if s.tombstoned]

    def rewrite_in_place(self, span_id: str, content: str, op: str) -> ContextSpan:
        with self._lock:
            span = self.get(span_id)
            span.content = content
            span.version += 1
            span.content_hash = digest(content)
            span.produced_by = f"rewrite:{op}"
            return span

    def derive_rewrite(self, span_id: str, content: str, op: str) -> ContextSpan:
        with self._lock:
            old = self.get(span_id)
            new = ContextSpan(
                kind=old.kind,
                content=content,
                version=old.version + 1,
                produced_by=f"rewrite:{op}",
                source_ids=[old.id],
                turn=old.turn,
            )
            self._spans[new.id] = new
            old.tombstoned = True
            old.tombstoned_at = time.time()
            old.superseded_by = new.id
            return new

    def tombstone(self, span_id: str) -> None:
        with self._lock:
            span = self.get(span_id)
            span.tombstoned = True
            span.tombstoned_at = time.time()

    def drop(self, span_ids: Iterable[str]) -> list[ContextSpan]:
        removed: list[ContextSpan] = []
        with self._lock:
            for sid in list(span_ids):
                span = self._spans.pop(sid, None)
                if span is not None:
                    removed.append(span)
        return removed

    def collect_garbage(self, holders: Iterable[SpanRef | str]) -> list[str]:
        held = {h.span_id if isinstance(h, SpanRef) else h for h in holders}
        collected: list[str] = []
        with self._lock:
            for span in self.tombstones():
                if span.id in held:
                    continue
                del self._spans[span.id]
                collected.append(span.id)
        return collected

    def vacuum(self, max_age_s: float = 900.0) -> int:
        cutoff = time.time() - max_age_s
        with self._lock:
            expired = [
                s.id
                for s in self._spans.values()
                if s.tombstoned and (s.tombstoned_at or 0.0) < cutoff
            ]
            for sid in expired:
                self._spans.pop(sid)
        return len(expired)

    def snapshot(self) -> list[ContextSpan]:
        with self._lock:
            return [s.model_copy() for s in self._spans.values()]

    def total_chars(self) -> int:
        return sum(len(s.content) for s in self.live())
