"""Sentence offset maps into passages."""

from __future__ import annotations

import dspy

from .models import OffsetMap, SpanKey, StaleSpanError
from .store import PassageStore
from .textutil import sentence_bounds


class OffsetIndex:
    def __init__(self, store: PassageStore) -> None:
        self.store = store
        self._maps: dict[SpanKey, OffsetMap] = {}

    def map_for(self, passage: dspy.Example) -> OffsetMap:
        key = SpanKey.of(passage)
        omap = self._maps.get(key)
        if omap is None:
            omap = OffsetMap(key.pid, key.version, key.content_hash, sentence_bounds(passage.text))
            self._maps[key] = omap
        return omap

    def sentence(self, omap: OffsetMap, n: int) -> str:
        passage = self.store.get(omap.pid)
        if passage.version != omap.version or passage.content_hash != omap.content_hash:
            raise StaleSpanError(
                f"offset map for {omap.pid} built at v{omap.version}, passage is now v{passage.version}"
            )
        start, end = omap.sentences[n]
        if end > len(passage.text):
            raise StaleSpanError(f"sentence {n} of {omap.pid} ends past the passage")
        return passage.text[start:end]

    def forget(self, pid: str) -> None:
        for key in [k for k in self._maps if k.pid == pid]:
            del self._maps[key]
