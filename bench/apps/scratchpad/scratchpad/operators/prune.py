"""Drop segments that no longer matter."""

from __future__ import annotations

import time

from scratchpad.decision_log import DecisionLog
from scratchpad.window import ContextWindow


def _stale(seg, turn: int) -> bool:
    return seg.kind == "tool" and turn - seg.rev > 8


class Pruner:
    def __init__(self, log: DecisionLog) -> None:
        self.log = log

    def prune_stale_tools(self, window: ContextWindow, turn: int) -> list[str]:
        victims = [s.seg_id for s in window if _stale(s, turn)]
        for sid in victims:
            window.drop(sid)
        self.log.record("prune", victims, f"tool output older than 8 turns at turn {turn}")
        return victims

    def prune_with_reason(self, window: ContextWindow, seg_ids: list[str], why: str) -> None:
        self.log.record("prune", seg_ids, why)
        for sid in seg_ids:
            window.drop(sid)

    def evict_over_budget(self, window: ContextWindow) -> None:
        while window.token_count() > window.budget_tokens and window.order:
            oldest = window.order[0]
            window.drop(oldest)


def drop_duplicates(window: ContextWindow, log: DecisionLog) -> int:
    seen: dict[str, str] = {}
    dropped = 0
    for seg in list(window):
        first = seen.setdefault(seg.digest, seg.seg_id)
        if first != seg.seg_id:
            log.record("dedupe", [seg.seg_id], "duplicate", duplicate_of=first)
            window.drop(seg.seg_id)
            dropped += 1
    return dropped
