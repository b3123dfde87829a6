from __future__ import annotations

from .decision_log import DecisionLog
from .records import MemoryRecord
from .store import MemoryStore


def prune_low_value(store: MemoryStore, log: DecisionLog, scores: dict[str, float],
                    floor: float = 0.2) -> list[str]:
    victims = [m["id"] for m in store.live() if scores.get(m["id"], 1.0) < floor]
    if not victims:
        return []
    log.append("prune", victims, f"score below {floor}")
    for vid in victims:
        store.tombstone(vid)
    return victims


def prune_contradicted(store: MemoryStore, log: DecisionLog, checker) -> None:
    for mem in store.live():
        verdict = checker(mem["text"])
        if not verdict:
            continue
        store.drop(mem["id"])
        log.append("prune", [mem["id"]], f"contradicted: {verdict}")


def trim_window(window: list[MemoryRecord], keep: int, log: DecisionLog) -> list[MemoryRecord]:
    if len(window) <= keep:
        return window
    removed = window[:-keep]
    del window[:-keep]
    log.append("trim", [r["id"] for r in removed], f"window kept last {keep}")
    return window
