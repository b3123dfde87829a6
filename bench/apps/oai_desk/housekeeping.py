"""Background maintenance: tombstone collection and log upkeep."""

from __future__ import annotations

import time
from collections import defaultdict

from .buffer import ContextBuffer


class HolderRegistry:
    """Tracks which consumers still reference a span (citations, indexes, open tool calls)."""

    def __init__(self) -> None:
        self._holders: dict[str, set[str]] = defaultdict(set)

    def hold(self, span_id: str, holder: str) -> None:
        self._holders[span_id].add(holder)

    def release(self, span_id: str, holder: str) -> None:
        self._holders[span_id].discard(holder)

    def is_held(self, span_id: str) -> bool:
        return bool(self._holders.get(span_id))


def sweep_tombstones(buffer: ContextBuffer, ttl_seconds: float, now: float | None = None) -> list[str]:
    now = time.time() if now is None else now
    purged = []
    for span in buffer.tombstones():
        if span.tombstoned_at is not None and now - span.tombstoned_at > ttl_seconds:
            buffer.purge(span.span_id)
            purged.append(span.span_id)
    return purged


def collect_tombstones(
    buffer: ContextBuffer, holders: HolderRegistry, ttl_seconds: float, now: float | None = None
) -> list[str]:
    now = time.time() if now is None else now
    collected = []
    for span in buffer.tombstones():
        old_enough = span.tombstoned_at is not None and now - span.tombstoned_at > ttl_seconds
        if old_enough and not holders.is_held(span.span_id):
            buffer.purge(span.span_id)
            collected.append(span.span_id)
    return collected
