import uuid
from typing import Any, Dict, List

from autogen_core import CancellationToken
from autogen_core.memory import ListMemory, MemoryContent, MemoryMimeType

from .models import content_hash
from .operators import normalize_text


class SpanMemory(ListMemory):
    async def add_span(self, text: str) -> str:
        sid = uuid.uuid4().hex
        meta: Dict[str, Any] = {"span_id": sid, "version": 1, "hash": content_hash(text)}
        await self.add(MemoryContent(content=text, mime_type=MemoryMimeType.TEXT, metadata=meta))
        return sid

    async def normalize_all(self) -> None:
        for item in self._contents:
            item.content = normalize_text(str(item.content))

    async def rewrite_copy(self, sid: str, text: str) -> str:
        new_id = uuid.uuid4().hex
        for item in self._contents:
            if (item.metadata or {}).get("span_id") == sid:
                item.metadata["tombstoned_by"] = new_id
        meta = {"span_id": new_id, "version": 1, "hash": content_hash(text), "replaces": sid}
        self._contents.append(MemoryContent(content=text, mime_type=MemoryMimeType.TEXT, metadata=meta))
        return new_id

    async def forget(self, sid: str, cancellation_token: CancellationToken | None = None) -> None:
        self._contents = [c for c in self._contents if (c.metadata or {}).get("span_id") != sid]

    def texts(self) -> List[str]:
        return [str(c.content) for c in self._contents]
