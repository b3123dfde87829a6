"""Window compaction: drop low-value spans when the context nears its budget."""

from __future__ import annotations

import logging
from datetime import timedelta

from .decision_log import DecisionLog
from .models import ContextSpan, utcnow
from .store import ContextStore

log = logging.getLogger(__name__)

TOMBSTONE_TTL = timedelta(hours=6)


def window_tokens(store: ContextStore) -> int:
    return sum(s.token_count for s in store.live())


def pick_victims(store: ContextStore, budget: int) -> list[ContextSpan]:
    over = window_tokens(store) - budget
    victims: list[ContextSpan] = []
    for span in store.live():
        if over <= 0:
            break
        if span.kind in ("tool", "turn") and not span.holders:
            victims.append(span)
            over -= span.token_count
    return victims


def compact_window(store: ContextStore, decisions: DecisionLog, budget: int) -> int:
    victims = pick_victims(store, budget)
    for span in victims:
        store.delete(span.span_id)
    if victims:
        decisions.record(
            "prune", victims, f"window over budget {budget}; dropped oldest unheld spans"
        )
    return len(victims)


def compact_window_recorded(store: ContextStore, decisions: DecisionLog, budget: int) -> int:
    victims = pick_victims(store, budget)
    if not victims:
        return 0
    decisions.record(
        "prune", victims, f"window over budget {budget}; dropped oldest unheld spans"
    )
    for span in victims:
        store.delete(span.span_id)
    return len(victims)


def drop_superseded_tool_output(
    store: ContextStore, decisions: DecisionLog, tool_name: str
) -> list[str]:
    stale = [s for s in store.live() if s.kind == "tool" and s.produced_by == f"tool:{tool_name}"]
    dropped: list[str] = []
    try:
        for span in stale[:-1]:
            store.delete(span.span_id)
            dropped.append(span.span_id)
    except Exception:
        log.exception("failed while dropping %s output", tool_name)
        return dropped
    decisions.record("prune", stale[:-1], f"{tool_name} output superseded by latest call")
    return dropped


def collect_tombstones(store: ContextStore) -> int:
    now = utcnow()
    expired = [s for s in store.tombstones() if now - s.tombstoned_at > TOMBSTONE_TTL]
    for span in expired:
        store.delete(span.span_id)
    return len(expired)


def collect_released_tombstones(store: ContextStore, decisions: DecisionLog) -> int:
    releasable = [s for s in store.tombstones() if not s.holders]
    if not releasable:
        return 0
    decisions.record("gc", releasable, "tombstoned spans with no remaining holders")
    for span in releasable:
        store.delete(span.span_id)
    return len(releasable)
