"""A Memory implementation that surfaces research notes to the agents."""

from __future__ import annotations

import time
from typing import Any, Dict, List, Optional

from autogen_core import CancellationToken
from autogen_core.memory import Memory, MemoryContent, MemoryMimeType, MemoryQueryResult, UpdateContextResult
from autogen_core.model_context import ChatCompletionContext
from autogen_core.models import SystemMessage

from .notes import ResearchNote, digest


def note_to_memory(note: ResearchNote) -> MemoryContent:
    return MemoryContent(
        content=note.text,
        mime_type=MemoryMimeType.MARKDOWN,
        metadata={
            "note_id": note.note_id,
            "version": note.version,
            "content_hash": note.content_hash,
            "source_url": note.source_url,
        },
    )


class NoteMemory(Memory):
    """Keeps the team's pinned findings and injects them as a system message."""

    def __init__(self, name: str = "pinned_findings", max_items: int = 12) -> None:
        self._name = name
        self._max_items = max_items
        self._items: List[MemoryContent] = []

    @property
    def name(self) -> str:
        return self._name

    def _find(self, note_id: str) -> Optional[MemoryContent]:
        for item in self._items:
            if (item.metadata or {}).get("note_id") == note_id:
                return item
        return None

    async def update_context(self, model_context: ChatCompletionContext) -> UpdateContextResult:
        live = [i for i in self._items if not (i.metadata or {}).get("tombstoned_at")]
        if not live:
            return UpdateContextResult(memories=MemoryQueryResult(results=[]))
        lines = [f"- ({(i.metadata or {}).get('note_id')}) {i.content}" for i in live[-self._max_items :]]
        await model_context.add_message(SystemMessage(content="Pinned findings:\n" + "\n".join(lines)))
        return UpdateContextResult(memories=MemoryQueryResult(results=live))

    async def query(
        self,
        query: str | MemoryContent,
        cancellation_token: CancellationToken | None = None,
        **kwargs: Any,
    ) -> MemoryQueryResult:
        needle = query if isinstance(query, str) else str(query.content)
        hits = [i for i in self._items if needle.lower() in str(i.content).lower()]
        return MemoryQueryResult(results=hits)

    async def add(self, content: MemoryContent, cancellation_token: CancellationToken | None = None) -> None:
        self._items.append(content)

    async def pin(self, note: ResearchNote) -> None:
        await self.add(note_to_memory(note))

    async def amend(self, note_id: str, text: str) -> bool:
        item = self._find(note_id)
        if item is None:
            return False
        item.content = text
        if item.metadata is not None:
            item.metadata["content_hash"] = digest(text)
        return True

    async def supersede(self, note: ResearchNote) -> None:
        old = self._find(note.note_id)
        meta: Dict[str, Any] = {
            "note_id": note.note_id,
            "version": note.version,
            "content_hash": note.content_hash,
            "source_url": note.source_url,
        }
        if old is not None:
            old_meta = old.metadata or {}
            if old_meta.get("version") == note.version and old_meta.get("content_hash") == note.content_hash:
                return
            self._items.remove(old)
            meta["replaces_version"] = old_meta.get("version")
        self._items.append(MemoryContent(content=note.text, mime_type=MemoryMimeType.MARKDOWN, metadata=meta))

    async def retire(self, note_id: str) -> None:
        item = self._find(note_id)
        if item is not None and item.metadata is not None:
            item.metadata["tombstoned_at"] = time.time()

    async def expire(self, ttl_seconds: float) -> int:
        now = time.time()
        before = len(self._items)
        self._items = [
            i
            for i in self._items
            if not (i.metadata or {}).get("tombstoned_at") or now - i.metadata["tombstoned_at"] < ttl_seconds
        ]
        return before - len(self._items)

    async def clear(self) -> None:
        self._items = []

    async def close(self) -> None:
        return None

    def snapshot(self) -> List[Dict[str, Any]]:
        return [item.model_dump() for item in self._items]
