"""Decision log kept in the LangGraph store, one namespace per thread."""

import uuid
from datetime import datetime, timezone
from typing import Sequence

from langgraph.store.base import BaseStore

from graph_memory.settings import decisions_ns


class DecisionLog:
    def __init__(self, store: BaseStore, thread_id: str) -> None:
        self._store = store
        self._ns = decisions_ns(thread_id)

    async def record(self, op: str, rationale: str, targets: Sequence[str]) -> str:
        now = datetime.now(timezone.utc)
        entry_id = f"{now:%Y%m%dT%H%M%S%f}-{uuid.uuid4().hex[:8]}"
        entry = {"op": op, "rationale": rationale, "targets": list(targets), "at": now.isoformat()}
        await self._store.aput(self._ns, entry_id, entry, index=False)
        return entry_id

    async def annotate(self, entry_id: str, note: str) -> None:
        """Attach a reviewer's note to an existing decision."""
        item = await self._store.aget(self._ns, entry_id)
        if item is None:
            return
        value = dict(item.value)
        value["rationale"] = f"{value['rationale']} [review: {note}]"
        await self._store.aput(self._ns, entry_id, value, index=False)

    async def rotate(self, keep: int = 500) -> int:
        """Keep the log bounded for long-lived threads."""
        items = await self._store.asearch(self._ns, limit=10_000)
        if len(items) <= keep:
            return 0
        items.sort(key=lambda it: it.created_at)
        stale = items[: len(items) - keep]
        for it in stale:
            await self._store.adelete(self._ns, it.key)
        return len(stale)
