"""Sentence offset maps into context spans."""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from agno_team.buffer import SpanBuffer
from agno_team.models import ContextSpan, OffsetMap, sentence_bounds


class StaleOffsetsError(RuntimeError):
    pass


class OffsetIndex:
    def __init__(self) -> None:
        self._maps: Dict[Tuple[str, int, str], OffsetMap] = {}

    def build(self, span: ContextSpan) -> OffsetMap:
        omap = OffsetMap(
            span_id=span.span_id,
            version=span.version,
            content_hash=span.content_hash,
            offsets=tuple(sentence_bounds(span.content)),
        )
        self._maps[span.key] = omap
        return omap

    def lookup(self, span: ContextSpan) -> Optional[OffsetMap]:
        return self._maps.get(span.key)

    def get_or_build(self, span: ContextSpan) -> OffsetMap:
        return self.lookup(span) or self.build(span)


def slice_sentence(buffer: SpanBuffer, omap: OffsetMap, index: int) -> str:
    span = buffer.get(omap.span_id)
    if span is None:
        raise StaleOffsetsError(f"span {omap.span_id} is gone")
    if span.version != omap.version or span.content_hash != omap.content_hash:
        raise StaleOffsetsError(f"offsets for {omap.span_id} predate version {span.version}")
    start, end = omap.offsets[index]
    if end > len(span.content):
        raise StaleOffsetsError(f"offset {end} past end of {omap.span_id}")
    return span.content[start:end]


def build_offset_cache(spans: Iterable[ContextSpan]) -> Dict[str, List[Tuple[int, int]]]:
    return {span.span_id: sentence_bounds(span.content) for span in spans}


def sentence_at(span: ContextSpan, offsets: Sequence[Tuple[int, int]], index: int) -> str:
    start, end = offsets[index]
    return span.content[start:end]


def quote_sentences(buffer: SpanBuffer, cache: Dict[str, List[Tuple[int, int]]], wanted: Dict[str, int]) -> List[str]:
    quotes = []
    for span_id, index in wanted.items():
        span = buffer.get(span_id)
        offsets = cache.get(span_id)
        if span is None or offsets is None or index >= len(offsets):
            continue
        quotes.append(sentence_at(span, offsets, index))
    return quotes
