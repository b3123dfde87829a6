"""Thin async facade over mem0's AsyncMemory for one user."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Iterable

from langchain_core.messages import BaseMessage
from mem0 import AsyncMemory

from .decision_log import DecisionLog

_ROLE = {"human": "user", "ai": "assistant"}
MemoryHit = dict[str, Any]


class MemoryStore:
    def __init__(self, memory: AsyncMemory, user_id: str, log: DecisionLog) -> None:
        self.memory = memory
        self.user_id = user_id
        self.log = log
        self._mirror: dict[str, MemoryHit] = {}

    async def remember(self, messages: Iterable[BaseMessage]) -> list[dict[str, Any]]:
        payload = [{"role": _ROLE[m.type], "content": m.text} for m in messages if m.type in _ROLE]
        if not payload:
            return []
        result = await self.memory.add(payload, user_id=self.user_id, metadata={"channel": "chat"})
        events = result.get("results", [])
        for ev in events:
            if ev.get("event") in ("UPDATE", "DELETE"):
                self._mirror.pop(ev["id"], None)
        return events

    async def recall(self, query: str, k: int = 8) -> list[MemoryHit]:
        query = " ".join(query.split())[:500]
        if not query:
            return []
        res = await self.memory.search(query, filters={"user_id": self.user_id}, top_k=k, threshold=0.2)
        hits: list[MemoryHit] = res.get("results", [])
        for hit in hits:
            self._mirror[hit["id"]] = dict(hit)
        return hits

    async def correct(self, memory_id: str, new_text: str) -> None:
        """User said a remembered fact is wrong; store the corrected one."""
        await self.memory.update(memory_id, text=new_text)
        cached = self._mirror.get(memory_id)
        if cached is not None:
            cached["memory"] = new_text
            cached["updated_at"] = datetime.now(timezone.utc).isoformat()

    async def forget(self, memory_id: str, reason: str) -> None:
        await self.memory.delete(memory_id)
        self._mirror.pop(memory_id, None)
        self.log.record("forget", [memory_id], reason)

    async def forget_many(self, memory_ids: list[str], reason: str) -> int:
        evidence = []
        for mid in memory_ids:
            rows = await self.memory.history(mid)
            if rows:
                evidence.append(f"{mid}: {rows[-1]['new_memory'] or rows[-1]['old_memory']}")
        self.log.record("forget", memory_ids, reason, evidence=evidence)
        for mid in memory_ids:
            await self.memory.delete(mid)
            self._mirror.pop(mid, None)
        return len(memory_ids)

    async def timeline(self, memory_id: str) -> list[str]:
        """Human-readable change history for the memory settings page."""
        rows = await self.memory.history(memory_id)
        return [f"{r['updated_at'] or r['created_at']}  {r['event']:<6} {r['new_memory'] or r['old_memory'] or ''}" for r in rows]
