from __future__ import annotations

from haystack import Document

from .models import ContextSpan, OffsetMap


class EmbeddingCache:
    def __init__(self) -> None:
        self._by_id: dict[str, list[float]] = {}
        self._by_key: dict[tuple[str, int, str], list[float]] = {}

    def remember(self, doc: Document) -> None:
        if doc.embedding is not None:
            self._by_id[doc.id] = doc.embedding

    def lookup(self, doc: Document) -> list[float] | None:
        return self._by_id.get(doc.id)

    def remember_span(self, span: ContextSpan, vector: list[float]) -> None:
        self._by_key[(span.span_id, span.version, span.digest)] = vector

    def lookup_span(self, span: ContextSpan) -> list[float] | None:
        return self._by_key.get((span.span_id, span.version, span.digest))


_offsets: dict[str, OffsetMap] = {}


def sentence_offsets(span: ContextSpan) -> OffsetMap:
    starts = [0] + [i + 2 for i, ch in enumerate(span.text) if ch == "." and i + 2 < len(span.text)]
    om = OffsetMap(span_id=span.span_id, sentence_starts=starts)
    _offsets[span.span_id] = om
    return om


def nth_sentence(span: ContextSpan, n: int) -> str:
    om = _offsets.get(span.span_id) or sentence_offsets(span)
    start = om.sentence_starts[n]
    end = om.sentence_starts[n + 1] if n + 1 < len(om.sentence_starts) else len(span.text)
    return span.text[start:end]
