"""Tie answer sentences back to the spans they came from."""

from __future__ import annotations

from collections import defaultdict
from typing import Optional

from .buffer import ContextBuffer
from .records import Citation, ContextSpan, PinnedQuote


class CitationIndex:
    def __init__(self, buffer: ContextBuffer) -> None:
        self._buffer = buffer
        self._by_answer: dict[str, list[Citation]] = defaultdict(list)

    def cite(self, answer_id: str, span: ContextSpan, needle: str) -> Optional[Citation]:
        start = span.content.find(needle)
        if start < 0:
            return None
        cite = Citation(span.span_id, start, start + len(needle), label=span.source)
        self._by_answer[answer_id].append(cite)
        self._buffer.hold(span.span_id, f"answer:{answer_id}")
        return cite

    def footnotes(self, answer_id: str) -> list[str]:
        notes: list[str] = []
        for n, c in enumerate(self._by_answer.get(answer_id, []), start=1):
            if (span := self._buffer.get(c.span_id)) is not None:
                notes.append(f"[{n}] {span.content[c.start:c.end]!r} ({c.label})")
        return notes

    def pin(self, span: ContextSpan, start: int, end: int) -> PinnedQuote:
        return PinnedQuote(span.span_id, span.version, span.content_hash, start, end)

    def resolve(self, quote: PinnedQuote) -> Optional[str]:
        span = self._buffer.get(quote.span_id)
        if span is None or span.version != quote.version or span.content_hash != quote.content_hash:
            return None
        return span.content[quote.start:quote.end]

    def release(self, answer_id: str) -> None:
        for c in self._by_answer.pop(answer_id, []):
            self._buffer.release(c.span_id, f"answer:{answer_id}")
