"""Weak record of which spans are summaries and which span ids they were made from."""

from __future__ import annotations

import threading
import weakref
from itertools import compress, repeat
from operator import is_
from typing import Any

# A registry of at most this many summaries is searched summary by summary (one identity scan of
# the spans each) instead of by looking up every span's id.
FEW_RECORDED = 3


class LineageRegistry:
    """Maps summary spans to the ids of their sources without keeping any span alive.

    Spans that cannot be weakly referenced are not recorded; they are recognised as summaries by
    their provenance fields only.
    """

    def __init__(self) -> None:
        self._sources: dict[int, tuple[weakref.ref, frozenset]] = {}
        self._lock = threading.RLock()  # re-entrant: a weakref callback may run while it is held

    def record(self, summary: Any, sources: frozenset) -> None:
        """Remember that `summary` was produced from the spans with ids `sources`."""
        key = id(summary)

        def forget(_ref: weakref.ref, key: int = key) -> None:
            with self._lock:
                entry = self._sources.get(key)
                if entry is not None and entry[0] is _ref:
                    del self._sources[key]

        try:
            ref = weakref.ref(summary, forget)
        except TypeError:
            return
        with self._lock:
            self._sources[key] = (ref, sources)

    def sources(self, span: Any) -> frozenset | None:
        """The source ids of `span` if the guard saw it produced by a summarize call, else None."""
        entry = self._sources.get(id(span))
        if entry is None or entry[0]() is not span:
            return None
        return entry[1]

    def recorded_among(self, spans: list) -> list[int]:
        """The indices of the spans of `spans` that may be recorded (`sources` tells)."""
        sources = self._sources
        if not sources:
            return []
        if len(sources) <= FEW_RECORDED:
            try:
                recorded = [ref() for ref, _ in list(sources.values())]
            except RuntimeError:  # an entry left while they were read: look every span up instead
                recorded = None
            if recorded is not None:
                found: list[int] = []
                for summary in recorded:  # a dead one is none of `spans`
                    if summary is not None and any(map(is_, spans, repeat(summary))):
                        found += compress(range(len(spans)), map(is_, spans, repeat(summary)))
                return sorted(set(found)) if len(found) > 1 else found
        return [*compress(range(len(spans)), map(sources.__contains__, map(id, spans)))]

    def __len__(self) -> int:
        return len(self._sources)


LINEAGE = LineageRegistry()
