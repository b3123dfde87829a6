"""A curated memory service: explicit MemoryEntry items with embeddings."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Mapping
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Optional

from google.adk.memory import BaseMemoryService
from google.adk.memory.base_memory_service import SearchMemoryResponse
from google.adk.memory.memory_entry import MemoryEntry
from google.genai import types
from typing_extensions import override

from .decision_log import DecisionLog
from .embeddings import cosine
from .embeddings import embed_text
from .models import content_digest
from .models import content_text

if TYPE_CHECKING:
    from google.adk.events.event import Event
    from google.adk.sessions import Session

_UserKey = tuple[str, str]


class CuratedMemoryService(BaseMemoryService):
    def __init__(self, dim: int = 64, max_results: int = 8) -> None:
        self._dim = dim
        self._max_results = max_results
        self._lock = threading.Lock()
        self._entries: dict[_UserKey, dict[str, MemoryEntry]] = {}

    def _bucket(self, app_name: str, user_id: str) -> dict[str, MemoryEntry]:
        return self._entries.setdefault((app_name, user_id), {})

    def _index(self, entry: MemoryEntry) -> MemoryEntry:
        text = content_text(entry.content)
        entry.custom_metadata["embedding"] = embed_text(text, self._dim)
        entry.custom_metadata["content_hash"] = content_digest(text)
        entry.custom_metadata.setdefault("version", 1)
        return entry

    @override
    async def add_session_to_memory(self, session: Session) -> None:
        await self.add_events_to_memory(
            app_name=session.app_name,
            user_id=session.user_id,
            events=session.events,
            session_id=session.id,
        )

    @override
    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        with self._lock:
            bucket = self._bucket(app_name, user_id)
            for event in events:
                if event.id in bucket or not content_text(event.content):
                    continue
                entry = MemoryEntry(
                    id=event.id,
                    content=event.content.model_copy(deep=True),
                    author=event.author,
                    timestamp=str(event.timestamp),
                    custom_metadata={"session_id": session_id, **(custom_metadata or {})},
                )
                bucket[entry.id] = self._index(entry)

    @override
    async def add_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        memories: Sequence[MemoryEntry],
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        with self._lock:
            bucket = self._bucket(app_name, user_id)
            for memory in memories:
                entry = memory.model_copy(deep=True)
                entry.id = entry.id or uuid.uuid4().hex
                entry.custom_metadata.update(custom_metadata or {})
                bucket[entry.id] = self._index(entry)

    @override
    async def search_memory(
        self, *, app_name: str, user_id: str, query: str
    ) -> SearchMemoryResponse:
        q = embed_text(query, self._dim)
        with self._lock:
            entries = list(self._bucket(app_name, user_id).values())
        scored = sorted(
            entries,
            key=lambda e: cosine(q, e.custom_metadata.get("embedding", [])),
            reverse=True,
        )
        return SearchMemoryResponse(
            memories=[e.model_copy(deep=True) for e in scored[: self._max_results]]
        )

    @override
    async def delete_memory(
        self, *, app_name: str, user_id: str, memory_id: str | None = None
    ) -> None:
        if not memory_id:
            return
        with self._lock:
            self._bucket(app_name, user_id).pop(memory_id, None)

    async def revise_memory(
        self, *, app_name: str, user_id: str, memory_id: str, text: str
    ) -> MemoryEntry:
        with self._lock:
            entry = self._bucket(app_name, user_id)[memory_id]
            entry.content = types.Content(
                role=entry.content.role or "user",
                parts=[types.Part.from_text(text=text)],
            )
            entry.custom_metadata["version"] = entry.custom_metadata.get("version", 1) + 1
            entry.custom_metadata["content_hash"] = content_digest(text)
            entry.custom_metadata["revised_at"] = time.time()
            return entry

    async def merge_duplicates(
        self, *, app_name: str, user_id: str, keep_id: str, drop_id: str
    ) -> Optional[MemoryEntry]:
        with self._lock:
            bucket = self._bucket(app_name, user_id)
            keep = bucket.get(keep_id)
            drop = bucket.get(drop_id)
            if keep is None or drop is None:
                return None
            merged = content_text(keep.content) + "\n" + content_text(drop.content)
            keep.content = types.Content(
                role=keep.content.role or "user",
                parts=[types.Part.from_text(text=merged)],
            )
            keep.custom_metadata["version"] = keep.custom_metadata.get("version", 1) + 1
            keep.custom_metadata.pop("embedding", None)
            self._index(keep)
            drop.custom_metadata["merged_into"] = keep_id
            return keep

    async def forget_with_record(
        self,
        log: DecisionLog,
        *,
        app_name: str,
        user_id: str,
        memory_id: str,
        reason: str,
    ) -> bool:
        with self._lock:
            entry = self._bucket(app_name, user_id).get(memory_id)
        if entry is None:
            return False
        log.record(
            action="forget",
            span_ids=[memory_id],
            rationale=reason,
            evidence=[str(entry.custom_metadata.get("content_hash", ""))],
            excerpt=content_text(entry.content)[:240],
        )
        await self.delete_memory(app_name=app_name, user_id=user_id, memory_id=memory_id)
        return True
