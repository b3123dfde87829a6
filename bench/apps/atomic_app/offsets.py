"""Token/sentence offset maps into spans."""

from __future__ import annotations

from .models import OffsetMap, SpanBody
from .store import SpanHistory
from .textutil import sentence_offsets


class StaleSpanError(RuntimeError):
    pass


def build_offset_map(body: SpanBody) -> OffsetMap:
    return OffsetMap(
        span_id=body.span_id,
        version=body.version,
        content_hash=body.content_hash,
        offsets=tuple(sentence_offsets(body.text)),
    )


class OffsetMapCache:
    def __init__(self, history: SpanHistory) -> None:
        self.history = history
        self._maps: dict[tuple[str, int, str], OffsetMap] = {}

    def get(self, body: SpanBody) -> OffsetMap:
        key = (body.span_id, body.version, body.content_hash)
        omap = self._maps.get(key)
        if omap is None:
            omap = build_offset_map(body)
            self._maps[key] = omap
            self.history.hold(body.span_id, "offsets")
        return omap


def sentence_at(history: SpanHistory, omap: OffsetMap, index: int) -> str:
    body = history.body(omap.span_id)
    if body is None:
        raise StaleSpanError(f"span {omap.span_id} is gone")
    if body.version != omap.version or body.content_hash != omap.content_hash:
        raise StaleSpanError(f"offset map for {omap.span_id} built at v{omap.version}, span is v{body.version}")
    start, end = omap.offsets[index]
    if end > len(body.text):
        raise StaleSpanError(f"offset {end} past end of {omap.span_id}")
    return body.text[start:end]


def window_around(history: SpanHistory, omap: OffsetMap, index: int, radius: int = 1) -> str:
    body = history.body(omap.span_id)
    lo = max(0, index - radius)
    hi = min(len(omap.offsets) - 1, index + radius)
    start, end = omap.offsets[lo][0], omap.offsets[hi][1]
    return body.text[start:end]
