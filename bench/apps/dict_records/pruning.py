"""Pruning passes run when the prompt goes over budget."""

from __future__ import annotations

import re

from .store import ContextStore

SUPERSEDED = re.compile(
    r"(?P<old>[\w./-]+)\s+(?:is|was|has been)\s+superseded\s+by\s+(?P<new>[\w./-]+)",
    re.IGNORECASE,
)


def superseded_modules(store: ContextStore) -> dict[str, str]:
    found: dict[str, str] = {}
    for span in store.live():
        for m in SUPERSEDED.finditer(span["text"]):
            found[m.group("old")] = m.group("new")
    return found


def drop_superseded(store: ContextStore, log) -> list[str]:
    table = superseded_modules(store)
    if not table:
        return []
    dropped = []
    for span in list(store.live()):
        if span["kind"] not in ("tool", "note"):
            continue
        stale = [old for old in table if old in span["text"]]
        if stale:
            store.drop(span["id"])
            dropped.append(span["id"])
    if dropped:
        log.append("prune", rule="superseded", modules=sorted(table), spans=dropped)
    return dropped


def evict_low_relevance(
    store: ContextStore, log, scores: dict[str, float], floor: float = 0.2, keep_last: int = 6
) -> list[str]:
    tail = set(store.order[-keep_last:])
    victims = [
        store.spans[sid]
        for sid in store.order
        if sid not in tail and store.spans[sid]["kind"] != "system" and scores.get(sid, 1.0) < floor
    ]
    if not victims:
        return []
    log.append(
        "evict",
        rule=f"relevance < {floor}",
        spans=[
            {
                "id": s["id"],
                "rev": s["rev"],
                "sha": s["sha"],
                "score": round(scores[s["id"]], 3),
                "excerpt": s["text"][:200],
            }
            for s in victims
        ],
    )
    for s in victims:
        store.retire(s["id"])
    return [s["id"] for s in victims]


def over_budget(store: ContextStore, count, budget: int) -> int:
    return max(0, sum(count(s) for s in store.live()) - budget)
