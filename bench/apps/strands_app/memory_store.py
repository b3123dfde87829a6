"""A small local memory store for customer facts, plugged into Strands' MemoryManager."""

from __future__ import annotations

import re
import time
from typing import Any

from strands.memory import MemoryEntry, MemoryManager, SearchOptions

from .models import digest

_TOKEN = re.compile(r"[a-z0-9]+")


def _canonical(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text[0].upper() + text[1:] if text else text


class CaseMemoryStore:
    name = "case-facts"
    description = "Durable facts about customers, accounts and past incidents."
    max_search_results: int | None = 5
    writable = True
    extraction = None

    def __init__(self) -> None:
        self._entries: dict[str, MemoryEntry] = {}

    async def search(self, query: str, options: SearchOptions | None = None) -> list[MemoryEntry]:
        limit = (options or {}).get("max_search_results", self.max_search_results or 5)
        terms = set(_TOKEN.findall(query.lower()))
        scored = []
        for mid, entry in self._entries.items():
            if (entry.metadata or {}).get("superseded_by"):
                continue
            overlap = len(terms & set(_TOKEN.findall(entry.content.lower())))
            if overlap:
                scored.append((overlap, mid, entry))
        scored.sort(key=lambda t: t[0], reverse=True)
        return [MemoryEntry(content=e.content, metadata={**(e.metadata or {}), "id": mid}) for _, mid, e in scored[:limit]]

    async def add(self, content: str, metadata: dict[str, Any] | None = None) -> str:
        mid = digest(content)[:16]
        self._entries.setdefault(mid, MemoryEntry(content=content, store_name=self.name, metadata={**(metadata or {}), "at": time.time()}))
        return mid

    async def correct(self, mid: str, new_content: str) -> str:
        new_id = await self.add(new_content, {"corrects": mid})
        old = self._entries[mid]
        old.metadata = {**(old.metadata or {}), "superseded_by": new_id}
        return new_id

    def consolidate(self) -> int:
        changed = 0
        for mid, entry in list(self._entries.items()):
            canon = _canonical(entry.content)
            if canon != entry.content:
                self._entries[mid] = MemoryEntry(content=canon, store_name=entry.store_name, metadata=entry.metadata)
                changed += 1
        return changed


def build_memory_manager(store: CaseMemoryStore) -> MemoryManager:
    return MemoryManager(stores=[store], search_tool_config=True, add_tool_config=True, injection=True)
