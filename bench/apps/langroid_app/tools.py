"""Tools the LLM can call (Langroid ToolMessages)."""
from __future__ import annotations

from typing import List, Tuple

from langroid.agent.tool_message import ToolMessage


class SaveNoteTool(ToolMessage):
    request: str = "save_note"
    purpose: str = "To save a short <text> note about <topic> for later turns."
    topic: str
    text: str

    @classmethod
    def examples(cls) -> List["ToolMessage" | Tuple[str, "ToolMessage"]]:
        return [cls(topic="deploy", text="Deploy target is staging-eu per turn 12.")]


class ReviseNoteTool(ToolMessage):
    request: str = "revise_note"
    purpose: str = "To correct the note with id <note_id>, replacing its text with <text>."
    note_id: str
    text: str


class QuoteSpanTool(ToolMessage):
    request: str = "quote_span"
    purpose: str = "To quote words <first> to <last> of context span <span_id>."
    span_id: str
    first: int
    last: int


class ScrubChunksTool(ToolMessage):
    request: str = "scrub_chunks"
    purpose: str = "To remove personal data from the ingested document chunks."
    reason: str = ""
    _allow_llm_use: bool = False
