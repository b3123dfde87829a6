# rules: SPL402
"""A memory manager with a provenance journal: appends are fine, rewrites are not."""
import asyncio


class MemoryManager:
    def __init__(self) -> None:
        self.journal: list[dict] = []
        self.provenance: dict[str, list[str]] = {}
        self._lock = asyncio.Lock()

    async def remember(self, node_id: str, source_ids: list[str]) -> None:
        async with self._lock:
            self.journal.append({"op": "remember", "node": node_id})
            self.provenance.setdefault(node_id, []).extend(source_ids)

    async def forget(self, node_id: str) -> None:
        async with self._lock:
            self.journal.append({"op": "forget", "node": node_id})
            self.provenance.pop(node_id, None)  # expect: SPL402

    async def compact_journal(self) -> None:
        async with self._lock:
            self.journal = [e for e in self.journal if e["op"] != "remember"]  # expect: SPL402

    def fix_entry(self, index: int, entry: dict) -> None:
        self.journal[index] = entry  # expect: SPL402

    def last_ops(self, n: int) -> list[dict]:
        return self.journal[-n:]

    def sources_of(self, node_id: str) -> list[str]:
        return list(self.provenance.get(node_id, []))
