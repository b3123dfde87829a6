"""Token offset maps over buffer spans."""

from __future__ import annotations

import re

from .models import OffsetMap
from .models import SpanRecord
from .models import StaleSpanError

_TOKEN = re.compile(r"\S+")


def token_offsets(text: str) -> tuple[tuple[int, int], ...]:
    return tuple((m.start(), m.end()) for m in _TOKEN.finditer(text))


class TokenMapCache:
    """Memoizes token offsets so windowing a long span stays cheap."""

    def __init__(self) -> None:
        self._maps: dict[str, tuple[tuple[int, int], ...]] = {}

    def offsets_for(self, rec: SpanRecord) -> tuple[tuple[int, int], ...]:
        cached = self._maps.get(rec.span_id)
        if cached is None:
            cached = token_offsets(rec.content)
            self._maps[rec.span_id] = cached
        return cached

    def window(self, rec: SpanRecord, first_token: int, n_tokens: int) -> str:
        offs = self.offsets_for(rec)
        if not offs:
            return ""
        last = min(first_token + n_tokens, len(offs)) - 1
        return rec.content[offs[first_token][0] : offs[last][1]]


class OffsetMapCache:
    def __init__(self) -> None:
        self._maps: dict[tuple[str, int, str], OffsetMap] = {}

    def build(self, rec: SpanRecord) -> OffsetMap:
        key = rec.key
        omap = self._maps.get(key)
        if omap is None:
            omap = OffsetMap(
                span_id=rec.span_id,
                version=rec.version,
                content_hash=rec.content_hash,
                offsets=token_offsets(rec.content),
            )
            self._maps[key] = omap
        return omap

    def forget_span(self, span_id: str) -> None:
        for key in [k for k in self._maps if k[0] == span_id]:
            del self._maps[key]


def slice_checked(rec: SpanRecord, omap: OffsetMap, first: int, stop: int) -> str:
    if (rec.span_id, rec.version, rec.content_hash) != (
        omap.span_id,
        omap.version,
        omap.content_hash,
    ):
        raise StaleSpanError(
            f"offset map for {omap.span_id} v{omap.version} does not match "
            f"span v{rec.version}"
        )
    start = omap.offsets[first][0]
    end = omap.offsets[stop - 1][1]
    if end > len(rec.content):
        raise StaleSpanError(f"offsets end at {end}, span has {len(rec.content)} chars")
    return rec.content[start:end]
