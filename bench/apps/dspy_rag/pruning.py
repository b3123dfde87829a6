"""Context compaction: keep the passage store inside the token budget."""

from __future__ import annotations

import functools
import uuid

from .decision_log import DecisionLog
from .models import DecisionEntry
from .store import PassageStore
from .textutil import word_count


class TokenBudget:
    def __init__(self, store: PassageStore, limit: int) -> None:
        self.store = store
        self.limit = limit

    @functools.lru_cache(maxsize=4096)
    def tokens_for(self, pid: str) -> int:
        return int(word_count(self.store.get(pid).text) * 1.3)

    def total(self) -> int:
        return sum(self.tokens_for(p.pid) for p in self.store)


class ContextCompactor:
    def __init__(self, store: PassageStore, log: DecisionLog, budget: TokenBudget) -> None:
        self.store = store
        self.log = log
        self.budget = budget

    def prune_to_budget(self, relevance: dict[str, float]) -> list[str]:
        edit_id = f"budget-{uuid.uuid4().hex[:8]}"
        ranked = sorted(self.store, key=lambda p: relevance.get(p.pid, 0.0))
        victims = []
        total = self.budget.total()
        for passage in ranked:
            if total <= self.budget.limit:
                break
            victims.append(passage)
            total -= self.budget.tokens_for(passage.pid)
        for passage in victims:
            self.log.record(
                DecisionEntry(
                    edit_id=edit_id,
                    op="tombstone",
                    rationale=f"relevance {relevance.get(passage.pid, 0.0):.3f} below budget cut",
                    evidence=(passage.pid, f"{passage.version}:{passage.content_hash}"),
                    excerpt=passage.text[:200],
                )
            )
        for passage in victims:
            self.store.tombstone(passage.pid, reason=edit_id)
        return [p.pid for p in victims]

    def apply_supersession(self) -> list[str]:
        edit_id = f"supersede-{uuid.uuid4().hex[:8]}"
        notices = [p for p in self.store if p.get("supersedes")]
        doomed = {target: notice.pid for notice in notices for target in notice.supersedes}
        for pid in [*doomed, *(n.pid for n in notices)]:
            self.store.remove(pid)
        for target, notice_pid in doomed.items():
            self.log.record(
                DecisionEntry(
                    edit_id=edit_id,
                    op="prune",
                    rationale=f"superseded per notice {notice_pid}",
                    evidence=(target, notice_pid),
                )
            )
        return list(doomed)
