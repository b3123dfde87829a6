"""In-memory context buffer. Spans are kept in insertion order; tombstones stay readable."""

from __future__ import annotations

import time
from typing import Iterator, Optional

import attrs

from tessera.records import Span, content_digest


class UnknownSpan(KeyError):
    pass


@attrs.define
class ContextBuffer:
    _spans: dict[str, Span] = attrs.field(factory=dict)
    _order: list[str] = attrs.field(factory=list)
    token_budget: int = 12_000

    def __contains__(self, span_id: str) -> bool:
        return span_id in self._spans

    def __len__(self) -> int:
        return len(self._spans)

    def __iter__(self) -> Iterator[Span]:
        for sid in self._order:
            span = self._spans.get(sid)
            if span is not None:
                yield span

    def add(self, span: Span) -> Span:
        if span.span_id in self._spans:
            raise ValueError(f"duplicate span id {span.span_id}")
        self._spans[span.span_id] = span
        self._order.append(span.span_id)
        return span

    def put(self, span: Span) -> None:
        if span.span_id not in self._spans:
            self._order.append(span.span_id)
        self._spans[span.span_id] = span

    def get(self, span_id: str) -> Optional[Span]:
        return self._spans.get(span_id)

    def require(self, span_id: str) -> Span:
        try:
            return self._spans[span_id]
        except KeyError:
            raise UnknownSpan(span_id) from None

    def live(self) -> list[Span]:
        return [s for s in self if not s.is_tombstone]

    def tombstones(self) -> list[Span]:
        return [s for s in self if s.is_tombstone]

    def replace(self, span_id: str, content: str, *, op: str) -> Span:
        cur = self.require(span_id)
        nxt = attrs.evolve(
            cur,
            content=content,
            version=cur.version + 1,
            content_hash=content_digest(content),
            produced_by=f"rewrite:{op}",
        )
        self._spans[span_id] = nxt
        return nxt

    def tombstone(self, span_id: str, when: Optional[float] = None) -> None:
        span = self.require(span_id)
        span.tombstoned_at = when if when is not None else time.time()

    def drop(self, span_id: str) -> Optional[Span]:
        span = self._spans.pop(span_id, None)
        if span is not None:
            self._order.remove(span_id)
        return span

    def sources_of(self, span: Span) -> list[Span]:
        out: list[Span] = []
        stack = list(span.parents)
        seen: set[str] = set()
        while stack:
            pid = stack.pop()
            if pid in seen:
                continue
            seen.add(pid)
            parent = self._spans.get(pid)
            if parent is None:
                continue
            if parent.parents:
                stack.extend(parent.parents)
            else:
                out.append(parent)
        return out
