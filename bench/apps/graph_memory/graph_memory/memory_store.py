"""Repository over the LangGraph store for a user's long-term memories."""

import re
import uuid
from typing import Any, Iterable, Sequence

from langgraph.store.base import BaseStore, Item

from graph_memory.decision_log import DecisionLog
from graph_memory.records import MemoryValue
from graph_memory.settings import memory_ns
from graph_memory.textutil import digest, normalize_text


def _patch(item: Item, **changes: Any) -> dict[str, Any]:
    patched = item.value
    patched.update(changes)
    return patched


class MemoryRepo:
    def __init__(self, store: BaseStore, user_id: str, log: DecisionLog) -> None:
        self._store = store
        self._ns = memory_ns(user_id)
        self._log = log

    async def _require(self, key: str) -> Item:
        item = await self._store.aget(self._ns, key)
        if item is None:
            raise KeyError(f"memory {key} not found")
        return item

    async def add(self, content: str, *, kind: str = "note", source_ids: Sequence[str] = ()) -> str:
        key = uuid.uuid4().hex
        value: MemoryValue = {"content": content, "kind": kind, "version": 1, "content_hash": digest(content),
                              "source_ids": list(source_ids), "embedding": None}
        await self._store.aput(self._ns, key, dict(value))
        return key

    async def revise(self, key: str, content: str) -> dict[str, Any]:
        item = await self._require(key)
        value = dict(item.value)
        value["content"] = content
        value["version"] = int(value.get("version", 0)) + 1
        value["content_hash"] = digest(content)
        value["embedding"] = None
        await self._store.aput(self._ns, key, value)
        return value

    async def tidy(self, key: str) -> bool:
        item = await self._require(key)
        value = dict(item.value)
        cleaned = normalize_text(value["content"])
        if cleaned == value["content"]:
            return False
        value.pop("embedding", None)
        value.update(content=cleaned, version=value["version"] + 1, content_hash=digest(cleaned))
        await self._store.aput(self._ns, key, value)
        return True

    async def redact(self, key: str, patterns: Iterable[str]) -> None:
        item = await self._require(key)
        text = item.value["content"]
        for pattern in patterns:
            text = re.sub(pattern, "[redacted]", text, flags=re.IGNORECASE)
        await self._store.aput(self._ns, key, _patch(item, content=text))

    async def append_detail(self, key: str, detail: str) -> None:
        item = await self._require(key)
        value = dict(item.value)
        merged = f"{value['content'].rstrip()} {detail.strip()}"
        value.update(content=merged, version=value["version"] + 1, content_hash=digest(merged))
        await self._store.aput(self._ns, key, value)

    async def supersede(self, key: str, content: str, reason: str) -> str:
        old = await self._require(key)
        new_key = await self.add(content, kind=old.value["kind"], source_ids=[key])
        tomb = {**old.value, "tombstoned": True, "superseded_by": new_key}
        await self._store.aput(self._ns, key, tomb, index=False)
        await self._log.record("supersede", reason, [key, new_key])
        return new_key

    async def forget(self, keys: Sequence[str], reason: str) -> int:
        for key in keys:
            await self._store.adelete(self._ns, key)
        if keys:
            await self._log.record("forget", reason, list(keys))
        return len(keys)
