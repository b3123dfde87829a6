"""Langroid agents for the app: scratchpad chat agent and document agent."""
from __future__ import annotations

from typing import Dict, List, Optional, Pattern, Sequence

from langroid.agent.chat_agent import ChatAgent, ChatAgentConfig
from langroid.agent.chat_document import ChatDocument
from langroid.agent.special.doc_chat_agent import DocChatAgent, DocChatAgentConfig
from langroid.mytypes import Document

from .models import Note, StaleSpanError, new_id
from .offsets import OffsetMapCache, slice_tokens
from .operators import PII_PATTERNS, _scrub
from .store import SpanBuffer
from .tools import QuoteSpanTool, ReviseNoteTool, SaveNoteTool, ScrubChunksTool


class ScratchpadAgent(ChatAgent):
    def __init__(self, config: ChatAgentConfig, buffer: SpanBuffer, offsets: OffsetMapCache) -> None:
        super().__init__(config)
        self.buffer = buffer
        self.offsets = offsets
        self.notes: Dict[str, Note] = {}
        self.enable_message([SaveNoteTool, ReviseNoteTool, QuoteSpanTool])

    def save_note(self, msg: SaveNoteTool) -> str:
        note = Note(id=new_id("note"), text=msg.text, topic=msg.topic)
        self.notes[note.id] = note
        return f"saved note {note.id}"

    def revise_note(self, msg: ReviseNoteTool) -> str:
        note = self.notes.get(msg.note_id)
        if note is None:
            return f"no note with id {msg.note_id}"
        note.text = msg.text
        return f"revised note {note.id}"

    def quote_span(self, msg: QuoteSpanTool) -> str:
        span = self.buffer.find(msg.span_id)
        if span is None:
            return f"unknown span {msg.span_id}"
        omap = self.offsets.map_for(span)
        try:
            return slice_tokens(self.buffer, omap, msg.first, msg.last)
        except (StaleSpanError, IndexError) as e:
            return f"cannot quote: {e}"

    def llm_response(self, message: Optional[str | ChatDocument] = None) -> Optional[ChatDocument]:
        response = super().llm_response(message)
        self.buffer.mirror(self)
        return response

    def notes_block(self) -> str:
        return "\n".join(f"- ({n.topic}) {n.text}" for n in self.notes.values())


class LibrarianAgent(DocChatAgent):
    def __init__(self, config: DocChatAgentConfig) -> None:
        super().__init__(config)
        self.enable_message(ScrubChunksTool, use=False, handle=True)

    def scrub_chunks(self, msg: ScrubChunksTool) -> str:
        n = self.scrub(PII_PATTERNS)
        return f"scrubbed {n} chunks"

    def scrub(self, patterns: Sequence[Pattern[str]]) -> int:
        n = 0
        for doc in self.chunked_docs:
            cleaned = _scrub(doc.content, patterns)
            if cleaned != doc.content:
                doc.content = cleaned
                n += 1
        return n

    def supersede_chunk(self, chunk_id: str, new_text: str) -> Document:
        old = next(d for d in self.chunked_docs if d.id() == chunk_id)
        replacement = Document(
            content=new_text,
            metadata=old.metadata.model_copy(
                update={"id": new_id("chunk"), "supersedes": old.id(), "is_chunk": True}
            ),
        )
        self.ingest_docs([replacement], split=False)
        old.metadata.superseded_by = replacement.id()
        return replacement

    def sources(self) -> List[str]:
        return sorted({d.metadata.source for d in self.chunked_docs})
