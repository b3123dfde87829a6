"""In-process context buffer of DeskSpan records."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import replace

from agents import TResponseInputItem

from .models import DeskSpan, digest


class ContextBuffer:
    def __init__(self, spans: Iterable[DeskSpan] = ()) -> None:
        self._spans: dict[str, DeskSpan] = {}
        self._order: list[str] = []
        for span in spans:
            self.add(span)

    def __iter__(self) -> Iterator[DeskSpan]:
        return (self._spans[sid] for sid in self._order)

    def __len__(self) -> int:
        return len(self._order)

    def add(self, span: DeskSpan) -> DeskSpan:
        if span.span_id not in self._spans:
            self._order.append(span.span_id)
        self._spans[span.span_id] = span
        return span

    def get(self, span_id: str) -> DeskSpan | None:
        return self._spans.get(span_id)

    def live(self) -> list[DeskSpan]:
        return [span for span in self if span.is_live]

    def tombstones(self) -> list[DeskSpan]:
        return [span for span in self if not span.is_live]

    def as_input(self) -> list[TResponseInputItem]:
        return [span.to_input_item() for span in self.live()]

    def replace(self, span_id: str, new_content: str, op: str) -> DeskSpan:
        span = self._spans[span_id]
        span.content = new_content
        span.version += 1
        span.content_hash = digest(new_content)
        span.produced_by = f"rewrite:{op}"
        span.embedding = None
        span.sentence_offsets = []
        return span

    def rewrite_copy(self, span_id: str, new_content: str, op: str) -> DeskSpan:
        old = self._spans[span_id]
        new_span = DeskSpan(
            span_id=f"{span_id}@{op}:{old.version + 1}",
            content=new_content,
            role=old.role,
            version=old.version + 1,
            produced_by=f"rewrite:{op}",
        )
        old.tombstoned_at = time.time()
        old.superseded_by = new_span.span_id
        return self.add(new_span)

    def apply_patch(self, span_id: str, new_content: str, op: str) -> DeskSpan:
        span = self._spans[span_id]
        patched = replace(
            span,
            content=new_content,
            version=span.version + 1,
            content_hash=digest(new_content),
            produced_by=f"patch:{op}",
        )
        self._spans[span_id] = patched
        return patched

    def remove(self, span_id: str) -> DeskSpan:
        span = self._spans.pop(span_id)
        self._order.remove(span_id)
        return span

    def purge(self, span_id: str) -> None:
        if span_id in self._spans:
            self.remove(span_id)
