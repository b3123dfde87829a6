from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterable
from typing import Any

from langgraph.store.base import BaseStore, Item

from .records import utcnow

AUDIT_NAMESPACE = ("audit", "context_decisions")


def _entry_key() -> str:
    # lexicographic order == insertion order
    return f"{time.time_ns():020d}-{uuid.uuid4().hex[:8]}"


class DecisionLog:
    """Why the agent removed or rewrote something in a customer's context."""

    def __init__(self, store: BaseStore, namespace: tuple[str, ...] = AUDIT_NAMESPACE) -> None:
        self._store = store
        self.namespace = namespace

    def _entry(
        self,
        action: str,
        reason: str,
        subject_ids: Iterable[str],
        thread_id: str | None,
        evidence: dict[str, Any] | None,
    ) -> dict[str, Any]:
        return {
            "action": action,
            "reason": reason,
            "subject_ids": list(subject_ids),
            "thread_id": thread_id,
            "evidence": evidence or {},
            "at": utcnow(),
        }

    def record(
        self,
        action: str,
        *,
        reason: str,
        subject_ids: Iterable[str],
        thread_id: str | None = None,
        evidence: dict[str, Any] | None = None,
    ) -> str:
        key = _entry_key()
        value = self._entry(action, reason, subject_ids, thread_id, evidence)
        self._store.put(self.namespace, key, value, index=False)
        return key

    async def arecord(
        self,
        action: str,
        *,
        reason: str,
        subject_ids: Iterable[str],
        thread_id: str | None = None,
        evidence: dict[str, Any] | None = None,
    ) -> str:
        key = _entry_key()
        value = self._entry(action, reason, subject_ids, thread_id, evidence)
        await self._store.aput(self.namespace, key, value, index=False)
        return key

    def entries(self, *, thread_id: str | None = None, limit: int = 200) -> list[Item]:
        flt = {"thread_id": thread_id} if thread_id else None
        items = self._store.search(self.namespace, filter=flt, limit=limit)
        return sorted(items, key=lambda it: it.key)

    def scrub_pii(self, patterns: Iterable[str], *, batch: int = 500) -> int:
        compiled = [re.compile(p) for p in patterns]
        changed = 0
        offset = 0
        while True:
            page = self._store.search(self.namespace, limit=batch, offset=offset)
            if not page:
                break
            for item in page:
                reason = item.value.get("reason", "")
                cleaned = reason
                for rx in compiled:
                    cleaned = rx.sub("[redacted]", cleaned)
                if cleaned != reason:
                    self._store.put(
                        self.namespace, item.key, {**item.value, "reason": cleaned}, index=False
                    )
                    changed += 1
            offset += len(page)
        return changed
