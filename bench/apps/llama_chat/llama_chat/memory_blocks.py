"""Memory wiring: short-term chat history plus long-term memory blocks."""

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from pydantic import Field

from llama_index.core.llms import LLM, ChatMessage
from llama_index.core.memory import BaseMemoryBlock, FactExtractionMemoryBlock, InsertMethod
from llama_index.core.memory import Memory, StaticMemoryBlock

from .config import AssistantSettings

_TRIGGER = "remember that "


@dataclass
class PinnedNote:
    note_id: str
    text: str
    pinned_by: Optional[str] = None


class PinnedNotesBlock(BaseMemoryBlock[str]):
    """Notes the user explicitly asked the assistant to keep ("remember that ...")."""

    name: str = Field(default="PinnedNotes")
    notes: Dict[str, PinnedNote] = Field(default_factory=dict)
    max_notes: int = Field(default=20)

    async def _aget(self, messages: Optional[List[ChatMessage]] = None, **block_kwargs: Any) -> str:
        if not self.notes:
            return ""
        return "\n".join(f"- ({n.note_id}) {n.text}" for n in self.notes.values())

    async def _aput(self, messages: List[ChatMessage]) -> None:
        for msg in messages:
            text = (msg.content or "").strip()
            if not text.lower().startswith(_TRIGGER):
                continue
            body = text[len(_TRIGGER):].strip()
            topic = body.split(" ", 1)[0].lower().strip(",.:")
            existing = self.notes.get(topic)
            if existing is not None:
                existing.text = body
                continue
            if len(self.notes) >= self.max_notes:
                return
            self.notes[topic] = PinnedNote(topic, body, msg.additional_kwargs.get("session_id"))

    async def atruncate(self, content: str, tokens_to_truncate: int) -> Optional[str]:
        """Drop the oldest rendered notes until the prompt fits."""
        lines = content.splitlines()
        while lines and tokens_to_truncate > 0:
            tokens_to_truncate -= len(lines.pop(0).split())
        return "\n".join(lines) or None


def build_memory(settings: AssistantSettings, session_id: str, llm: LLM) -> Memory:
    blocks: List[BaseMemoryBlock] = [
        StaticMemoryBlock(name="house_rules", static_content=settings.house_rules, priority=0),
        FactExtractionMemoryBlock(name="facts", llm=llm, max_facts=40, priority=1),
        PinnedNotesBlock(max_notes=settings.max_pinned_notes, priority=2),
    ]
    return Memory.from_defaults(
        session_id=session_id, token_limit=settings.token_limit, memory_blocks=blocks,
        chat_history_token_ratio=settings.history_token_ratio, insert_method=InsertMethod.SYSTEM,
    )
