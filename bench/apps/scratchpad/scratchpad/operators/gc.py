"""Collect tombstoned segments."""

import time

from scratchpad.index import ExcerptIndex
from scratchpad.window import ContextWindow

TOMBSTONE_TTL = 15 * 60


def collect(window: ContextWindow, now: float | None = None) -> int:
    now = now or time.time()
    n = 0
    for seg in window.values():
        if seg.tombstoned and now - seg.tombstoned_at > TOMBSTONE_TTL:
            window.drop(seg.seg_id)
            n += 1
    return n


def collect_unreferenced(window: ContextWindow, index: ExcerptIndex, now: float | None = None) -> int:
    now = now or time.time()
    n = 0
    for seg in window.values():
        if not seg.tombstoned or now - seg.tombstoned_at < TOMBSTONE_TTL:
            continue
        if index.holders(seg.seg_id):
            continue
        window.drop(seg.seg_id)
        n += 1
    return n
