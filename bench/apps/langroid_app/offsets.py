"""Token offset maps into context spans (used for highlighting and quoting)."""
from __future__ import annotations

import functools
from typing import Dict, Tuple

from .models import ContextSpan, OffsetMap, SpanRef, StaleSpanError, word_bounds
from .store import SpanBuffer

Bounds = Tuple[Tuple[int, int], ...]


class TokenOffsetIndex:
    """Word-boundary offsets per span, memoised for the quoting helpers."""

    def __init__(self, buffer: SpanBuffer) -> None:
        self.buffer = buffer

    @functools.lru_cache(maxsize=4096)
    def offsets_for(self, span_id: str) -> Bounds:
        span = self.buffer.get(span_id)
        return tuple(word_bounds(span.content))

    def window(self, span_id: str, first: int, last: int) -> Tuple[int, int]:
        bounds = self.offsets_for(span_id)
        return bounds[first][0], bounds[min(last, len(bounds) - 1)][1]


class OffsetMapCache:
    def __init__(self, buffer: SpanBuffer) -> None:
        self.buffer = buffer
        self._maps: Dict[SpanRef, OffsetMap] = {}

    def map_for(self, span: ContextSpan) -> OffsetMap:
        ref = span.ref
        omap = self._maps.get(ref)
        if omap is None:
            omap = OffsetMap(ref=ref, bounds=tuple(word_bounds(span.content)))
            self._maps[ref] = omap
        return omap

    def drop_span(self, span_id: str) -> None:
        for ref in [r for r in self._maps if r.span_id == span_id]:
            del self._maps[ref]


def slice_tokens(buffer: SpanBuffer, omap: OffsetMap, first: int, last: int) -> str:
    span = buffer.find(omap.ref.span_id)
    if span is None or not omap.ref.matches(span):
        raise StaleSpanError(f"offset map for {omap.ref.span_id} is stale")
    start = omap.bounds[first][0]
    end = omap.bounds[min(last, len(omap.bounds) - 1)][1]
    return span.content[start:end]
