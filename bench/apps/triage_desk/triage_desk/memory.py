"""AutoGen memory over resolved tickets."""

from __future__ import annotations

from typing import Any

from autogen_core import CancellationToken
from autogen_core.memory import Memory, MemoryContent, MemoryMimeType, MemoryQueryResult, UpdateContextResult
from autogen_core.model_context import ChatCompletionContext
from autogen_core.models import SystemMessage


class ResolvedTicketMemory(Memory):
    def __init__(self) -> None:
        self._items: list[MemoryContent] = []

    async def add(self, content: MemoryContent, cancellation_token: CancellationToken | None = None) -> None:
        self._items.append(content)

    async def query(self, query: str | MemoryContent, cancellation_token: CancellationToken | None = None, **kwargs: Any) -> MemoryQueryResult:
        text = query if isinstance(query, str) else str(query.content)
        hits = [m for m in self._items if any(w in str(m.content).lower() for w in text.lower().split())]
        return MemoryQueryResult(results=hits[:5])

    async def update_context(self, model_context: ChatCompletionContext) -> UpdateContextResult:
        messages = await model_context.get_messages()
        last = str(messages[-1].content) if messages else ""
        result = await self.query(last)
        if result.results:
            notes = "\n".join(f"- {m.content}" for m in result.results)
            await model_context.add_message(SystemMessage(content=f"Similar resolved tickets:\n{notes}"))
        return UpdateContextResult(memories=result)

    def amend_resolution(self, ticket_id: str, resolution: str) -> None:
        for item in self._items:
            meta = item.metadata or {}
            if meta.get("ticket_id") == ticket_id:
                item.content = resolution
                meta["edited"] = True

    async def clear(self) -> None:
        self._items = []

    async def close(self) -> None:
        pass

    @staticmethod
    def from_ticket(ticket_id: str, text: str) -> MemoryContent:
        return MemoryContent(content=text, mime_type=MemoryMimeType.TEXT, metadata={"ticket_id": ticket_id, "version": 1})
