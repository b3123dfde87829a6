"""Keeps the shared context under the model's token budget."""

import time

from crew_memory.caches import count_tokens
from crew_memory.decision_log import DecisionLog
from crew_memory.spans import Span, SpanStore

PINNED_KINDS = frozenset({"system", "task"})


def _over_budget(store: SpanStore, budget: int) -> tuple[list[Span], int]:
    """Oldest tool output first, until the live context fits the budget."""
    live = store.live()
    used = sum(count_tokens(s.content) for s in live)
    picked: list[Span] = []
    for span in sorted(live, key=lambda s: (s.kind != "tool_output", s.created_at)):
        if used <= budget:
            break
        if span.kind not in PINNED_KINDS:
            picked.append(span)
            used -= count_tokens(span.content)
    return picked, used


class Compactor:
    def __init__(self, store: SpanStore, decisions: DecisionLog, budget: int = 12_000) -> None:
        self.store, self.decisions, self.budget = store, decisions, budget

    def compact(self) -> list[str]:
        picked, used = _over_budget(self.store, self.budget)
        removed = [s.span_id for s in picked if self.store.drop(s.span_id)]
        if removed:
            self.decisions.record("compact", removed, f"over budget {self.budget}; now {used}")
        return removed

    def trim_to_budget(self, budget: int | None = None) -> list[str]:
        limit = budget or self.budget
        plan, used = _over_budget(self.store, limit)
        ids = [s.span_id for s in plan]
        if ids:
            self.decisions.record("trim", ids, f"over budget {limit}; would be {used}",
                                  evidence=[f"{s.span_id}:{s.content_hash[:12]}" for s in plan])
        for span_id in ids:
            self.store.drop(span_id)
        return ids

    def collect_tombstones(self, max_age_s: float = 3600.0) -> int:
        cutoff = time.time() - max_age_s
        before = len(self.store.spans)
        self.store.spans = {sid: s for sid, s in self.store.spans.items()
                            if not (s.tombstoned and (s.tombstoned_at or 0) < cutoff)}
        return before - len(self.store.spans)

    def sweep(self) -> list[str]:
        dead = [s.span_id for s in self.store.spans.values()
                if s.tombstoned and not self.store.holders(s.span_id)]
        if dead:
            self.decisions.record("sweep", dead, "tombstoned and no live holders")
            for span_id in dead:
                self.store.drop(span_id)
        return dead
