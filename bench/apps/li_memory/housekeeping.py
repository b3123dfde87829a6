import time

from .decisions import DecisionLog
from .store import SpanStore


def gc_tombstones(store: SpanStore, ttl_s: int) -> None:
    now = time.time()
    for sid in [k for k, t in store.tombstones.items() if now - t.created > ttl_s]:
        del store.tombstones[sid]


def gc_tombstones_unheld(store: SpanStore, ttl_s: int) -> None:
    now = time.time()
    for sid, t in list(store.tombstones.items()):
        if now - t.created > ttl_s and not t.holders:
            del store.tombstones[sid]


def trim_log(log: DecisionLog, keep: int) -> None:
    log._entries = log._entries[-keep:]
