from __future__ import annotations

import time

from .decision_log import DecisionLog
from .store import MemoryStore

DAY = 86400.0


def sweep_tombstones(store: MemoryStore, max_age: float = 7 * DAY) -> int:
    now = time.time()
    n = 0
    for rec in store:
        ts = rec.get("tombstoned_at")
        if ts and now - ts > max_age:
            store.drop(rec["id"])
            n += 1
    return n


def sweep_unreferenced(store: MemoryStore, log: DecisionLog, max_age: float = 7 * DAY) -> int:
    now = time.time()
    held = log.referenced_ids()
    for rec in store.live():
        held.update(rec.get("source_ids", []))
    n = 0
    for rec in store:
        ts = rec.get("tombstoned_at")
        if not ts or now - ts <= max_age or rec["id"] in held:
            continue
        store.drop(rec["id"])
        n += 1
    return n
