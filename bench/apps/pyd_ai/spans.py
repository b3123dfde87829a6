"""The context store: spans the agent reads, rewrites and prunes."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Literal

SpanKind = Literal["ticket", "note", "tool_output", "summary", "kb_article"]

_counter = itertools.count(1)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_span_id(prefix: str = "sp") -> str:
    return f"{prefix}-{next(_counter):06d}"


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Span:
    span_id: str
    content: str
    kind: SpanKind = "note"
    version: int = 0
    content_hash: str = ""
    produced_by: str = "ingest"
    parents: tuple[str, ...] = ()
    created_at: datetime = field(default_factory=utcnow)
    tombstoned_at: datetime | None = None
    superseded_by: str | None = None

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.content)

    @property
    def is_tombstoned(self) -> bool:
        return self.tombstoned_at is not None


class ContextStore:
    """In-memory span store shared by the agent, its tools and the maintenance jobs."""

    def __init__(self, spans: Iterable[Span] = ()) -> None:
        self._spans: dict[str, Span] = {}
        for span in spans:
            self.add(span)

    def __len__(self) -> int:
        return len(self._spans)

    def __iter__(self) -> Iterator[Span]:
        return iter(list(self._spans.values()))

    def __contains__(self, span_id: object) -> bool:
        return span_id in self._spans

    def add(self, span: Span) -> Span:
        if span.span_id in self._spans:
            raise KeyError(f"duplicate span id {span.span_id}")
        self._spans[span.span_id] = span
        return span

    def get(self, span_id: str) -> Span:
        return self._spans[span_id]

    def find(self, span_id: str) -> Span | None:
        return self._spans.get(span_id)

    def live(self, kind: SpanKind | None = None) -> list[Span]:
        return [
            s
            for s in self._spans.values()
            if not s.is_tombstoned and (kind is None or s.kind == kind)
        ]

    def tombstoned(self) -> list[Span]:
        return [s for s in self._spans.values() if s.is_tombstoned]

    def replace_content(self, span_id: str, content: str, *, op: str) -> Span:
        span = self._spans[span_id]
        if content == span.content:
            return span
        span.content = content
        span.version += 1
        span.content_hash = digest(content)
        span.produced_by = f"rewrite:{op}"
        return span

    def rewrite(self, span_id: str, content: str, *, op: str) -> Span:
        old = self._spans[span_id]
        fresh = Span(
            span_id=new_span_id(old.kind[:2]),
            content=content,
            kind=old.kind,
            version=old.version + 1,
            produced_by=f"rewrite:{op}",
            parents=(old.span_id,),
        )
        self._spans[fresh.span_id] = fresh
        self._spans[old.span_id] = replace(
            old, tombstoned_at=utcnow(), superseded_by=fresh.span_id
        )
        return fresh

    def tombstone(self, span_id: str) -> None:
        span = self._spans[span_id]
        if span.tombstoned_at is None:
            span.tombstoned_at = utcnow()

    def delete(self, span_id: str) -> Span | None:
        return self._spans.pop(span_id, None)

    def delete_many(self, span_ids: Iterable[str]) -> int:
        n = 0
        for sid in span_ids:
            if self._spans.pop(sid, None) is not None:
                n += 1
        return n


class HolderRegistry:
    """Who still holds a reference to a span (indexes, open citations, pending tool calls)."""

    def __init__(self) -> None:
        self._holders: dict[str, set[str]] = {}

    def hold(self, span_id: str, holder: str) -> None:
        self._holders.setdefault(span_id, set()).add(holder)

    def release(self, span_id: str, holder: str) -> None:
        held = self._holders.get(span_id)
        if held is not None:
            held.discard(holder)
            if not held:
                del self._holders[span_id]

    def is_held(self, span_id: str) -> bool:
        return bool(self._holders.get(span_id))

    def holders_of(self, span_id: str) -> frozenset[str]:
        return frozenset(self._holders.get(span_id, ()))
