"""Decision log for pruning and compaction, kept in the LangGraph store."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable

from langgraph.store.base import BaseStore

from .models import DecisionEntry
from .settings import Settings


class DecisionLog:
    def __init__(self, store: BaseStore, thread_id: str, settings: Settings) -> None:
        self.store = store
        self.ns: tuple[str, ...] = (settings.decision_namespace, thread_id)

    def record(
        self,
        action: str,
        target_ids: Iterable[str],
        rationale: str,
        evidence: Iterable[str] = (),
    ) -> DecisionEntry:
        entry = DecisionEntry(
            entry_id=f"{time.time_ns():020d}-{uuid.uuid4().hex[:8]}",
            action=action,
            target_ids=tuple(target_ids),
            rationale=rationale,
            evidence=tuple(evidence),
            ts=time.time(),
        )
        self.store.put(
            self.ns,
            entry.entry_id,
            {
                "action": entry.action,
                "target_ids": list(entry.target_ids),
                "rationale": entry.rationale,
                "evidence": list(entry.evidence),
                "ts": entry.ts,
            },
            index=False,
        )
        return entry

    def entries(self, action: str | None = None) -> list[DecisionEntry]:
        items = self.store.search(
            self.ns, filter={"action": action} if action else None, limit=1000
        )
        out = [
            DecisionEntry(
                entry_id=it.key,
                action=it.value["action"],
                target_ids=tuple(it.value["target_ids"]),
                rationale=it.value["rationale"],
                evidence=tuple(it.value.get("evidence", ())),
                ts=float(it.value["ts"]),
            )
            for it in items
        ]
        return sorted(out, key=lambda e: e.entry_id)

    def why(self, span_id: str) -> list[DecisionEntry]:
        return [e for e in self.entries() if span_id in e.target_ids]

    def amend(self, entry_id: str, rationale: str) -> None:
        item = self.store.get(self.ns, entry_id)
        if item is None:
            raise KeyError(entry_id)
        self.store.put(self.ns, entry_id, {**item.value, "rationale": rationale}, index=False)

    def correct(self, entry_id: str, rationale: str) -> DecisionEntry:
        original = self.store.get(self.ns, entry_id)
        if original is None:
            raise KeyError(entry_id)
        return self.record(
            "correction",
            original.value["target_ids"],
            rationale,
            evidence=[entry_id],
        )
