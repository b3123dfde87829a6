"""Tombstone collection for the span store."""

from __future__ import annotations

import time

from .spans import SpanStore


def collect_expired(store: SpanStore, ttl_s: int) -> int:
    now = time.time()
    removed = 0
    for span in store.tombstones():
        if now - span.tombstoned_at > ttl_s:
            store.remove(span.span_id)
            removed += 1
    return removed


def collect_unreferenced(store: SpanStore, holders: list[set[str]]) -> int:
    held = set().union(*holders) if holders else set()
    removed = 0
    for span in store.tombstones():
        if span.span_id not in held:
            store.remove(span.span_id)
            removed += 1
    return removed
