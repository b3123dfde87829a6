import time
from typing import Set

from .store import SpanStore


def gc_tombstones(store: SpanStore, ttl_s: float) -> int:
    now = time.time()
    doomed = [s.span_id for s in store.all() if s.tombstoned and now - (s.tombstoned_at or 0) > ttl_s]
    for sid in doomed:
        store.remove(sid)
    return len(doomed)


def gc_unheld(store: SpanStore, ttl_s: float, held: Set[str]) -> int:
    now = time.time()
    doomed = [
        s.span_id for s in store.all()
        if s.tombstoned and now - (s.tombstoned_at or 0) > ttl_s and s.span_id not in held
    ]
    for sid in doomed:
        store.remove(sid)
    return len(doomed)
