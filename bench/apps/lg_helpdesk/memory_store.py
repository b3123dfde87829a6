from __future__ import annotations

import re
import uuid
from collections.abc import Iterable

from langgraph.store.base import BaseStore

from .decision_log import DecisionLog
from .records import MemoryRecord, bump, digest, utcnow


def memories_ns(customer_id: str) -> tuple[str, ...]:
    return ("customers", customer_id, "memories")


def profile_ns(customer_id: str) -> tuple[str, ...]:
    return ("customers", customer_id, "profile")


class LongTermMemory:
    """Cross-thread customer memory kept in the graph's BaseStore."""

    def __init__(self, store: BaseStore, log: DecisionLog) -> None:
        self._store = store
        self._log = log

    def remember(
        self,
        customer_id: str,
        text: str,
        *,
        kind: str = "fact",
        source_ids: Iterable[str] = (),
    ) -> MemoryRecord:
        record = MemoryRecord(
            memory_id=uuid.uuid4().hex,
            text=text.strip(),
            kind=kind,
            source_message_ids=list(source_ids),
        )
        self._store.put(memories_ns(customer_id), record.memory_id, record.to_value())
        return record

    def get(self, customer_id: str, memory_id: str) -> MemoryRecord | None:
        item = self._store.get(memories_ns(customer_id), memory_id)
        return MemoryRecord.from_item(item) if item else None

    def recall(self, customer_id: str, query: str, *, limit: int = 5) -> list[MemoryRecord]:
        hits = self._store.search(memories_ns(customer_id), query=query, limit=limit)
        return [MemoryRecord.from_item(h) for h in hits if h.value.get("kind") != "supersedes"]

    def update(
        self, customer_id: str, memory_id: str, text: str, *, source_ids: list[str] | None = None
    ) -> MemoryRecord:
        item = self._store.get(memories_ns(customer_id), memory_id)
        if item is None:
            raise KeyError(memory_id)
        record = MemoryRecord.from_item(item).revised(text, source_ids=source_ids)
        self._store.put(memories_ns(customer_id), memory_id, record.to_value())
        return record

    def correct(self, customer_id: str, memory_id: str, text: str, source_id: str) -> MemoryRecord:
        item = self._store.get(memories_ns(customer_id), memory_id)
        if item is None:
            raise KeyError(memory_id)
        rec = MemoryRecord.from_item(item)
        rec.amend(text, source_ids=[source_id])
        self._store.put(memories_ns(customer_id), memory_id, rec.to_value())
        return rec

    def redact(self, customer_id: str, memory_id: str, patterns: Iterable[str]) -> bool:
        ns = memories_ns(customer_id)
        item = self._store.get(ns, memory_id)
        if item is None:
            return False
        text = item.value["text"]
        for p in patterns:
            text = re.sub(p, "[redacted]", text)
        if text == item.value["text"]:
            return False
        self._store.put(ns, memory_id, bump(item.value, text))
        return True

    def merge_duplicate(self, customer_id: str, keep_id: str, drop_id: str) -> None:
        ns = memories_ns(customer_id)
        keep = self._store.get(ns, keep_id)
        drop = self._store.get(ns, drop_id)
        if keep is None or drop is None:
            return
        v = keep.value
        extra = drop.value["text"].strip()
        if extra and extra not in v["text"]:
            v["text"] = f"{v['text'].rstrip('.')}. {extra}"
        v["content_hash"] = digest(v["text"])
        v["source_message_ids"] = sorted(
            set(v.get("source_message_ids", [])) | set(drop.value.get("source_message_ids", []))
        )
        v["updated_at"] = utcnow()
        self._store.put(ns, keep_id, v)
        self._log.record(
            "merge_memory",
            reason=f"duplicate of {keep_id}",
            subject_ids=[drop_id],
            evidence={"dropped_text": drop.value["text"]},
        )
        self._store.delete(ns, drop_id)

    async def aforget_superseded(self, customer_id: str) -> list[str]:
        """Drop memories that a later 'supersedes' note has replaced, and the notes."""
        ns = memories_ns(customer_id)
        notes = await self._store.asearch(ns, filter={"kind": "supersedes"}, limit=100)
        forgotten: list[str] = []
        for note in notes:
            targets = list(note.value.get("supersedes", []))
            for key in targets:
                await self._store.adelete(ns, key)
            await self._store.adelete(ns, note.key)
            forgotten.extend(targets)
            await self._log.arecord(
                "forget_memory",
                reason=note.value.get("text", "superseded"),
                subject_ids=[*targets, note.key],
            )
        return forgotten
