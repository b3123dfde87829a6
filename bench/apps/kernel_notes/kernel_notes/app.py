"""Settings and wiring: kernel, services, plugins and the per-turn loop."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from uuid import uuid4

from semantic_kernel import Kernel
from semantic_kernel.connectors.ai.function_choice_behavior import FunctionChoiceBehavior
from semantic_kernel.connectors.ai.open_ai import OpenAIChatCompletion, OpenAIChatPromptExecutionSettings
from semantic_kernel.connectors.ai.open_ai import OpenAITextEmbedding
from semantic_kernel.connectors.in_memory import InMemoryCollection

from kernel_notes.buffer import NoteBuffer
from kernel_notes.citations import CitationBook
from kernel_notes.decision_log import DecisionLog
from kernel_notes.embeddings import EmbeddingCache
from kernel_notes.history_bridge import scrub_tool_noise, to_message
from kernel_notes.housekeeping import collect_unreferenced
from kernel_notes.plugins import FactsPlugin, NotesPlugin
from kernel_notes.records import NoteChunk
from kernel_notes.reducer import SourceGroundedReducer
from kernel_notes.spans import NoteSpan


@dataclass
class NotesSettings:
    chat_model_id: str = "gpt-4o-mini"
    embedding_model_id: str = "text-embedding-3-small"
    history_target_count: int = 24
    history_threshold_count: int = 4
    decision_log_path: str | None = os.getenv("KERNEL_NOTES_DECISION_LOG")
    redact_patterns: list[str] = field(default_factory=lambda: [r"\b\d{16}\b", r"sk-[A-Za-z0-9]{20,}"])


class SettingsStore:
    """Named settings profiles, with per-process overrides from the admin panel."""

    def __init__(self) -> None:
        self._profiles: dict[str, NotesSettings] = {"default": NotesSettings()}
        self._overrides: dict[str, dict[str, object]] = {}

    def get(self, name: str = "default") -> NotesSettings:
        base = self._profiles.get(name) or self._profiles["default"]
        extra = self._overrides.get(name)
        return replace(base, **extra) if extra else base

    def override(self, name: str, **values: object) -> NotesSettings:
        current = self._overrides.setdefault(name, {})
        current.update(values)
        return self.get(name)


class NotesApp:
    def __init__(self, settings: NotesSettings) -> None:
        self.settings = settings
        self.kernel = Kernel()
        self.chat = OpenAIChatCompletion(ai_model_id=settings.chat_model_id, service_id="chat")
        embedder = OpenAITextEmbedding(ai_model_id=settings.embedding_model_id, service_id="embed")
        self.kernel.add_service(self.chat)
        self.kernel.add_service(embedder)
        self.buffer = NoteBuffer()
        self.log = DecisionLog(settings.decision_log_path)
        self.book = CitationBook()
        self.facts = FactsPlugin()
        chunks = InMemoryCollection[str, NoteChunk](record_type=NoteChunk, collection_name="note_chunks")
        self.notes = NotesPlugin(self.buffer, chunks, EmbeddingCache(embedder), self.log)
        self.kernel.add_plugin(self.notes, plugin_name="notes")
        self.kernel.add_plugin(self.facts, plugin_name="facts")
        counts = {"target_count": settings.history_target_count, "threshold_count": settings.history_threshold_count}
        self.history = SourceGroundedReducer(service=self.chat, log=self.log, buffer=self.buffer, **counts)

    async def ingest(self, text: str, source: str = "ingest") -> NoteSpan:
        span = self.buffer.add(NoteSpan(span_id=f"n-{uuid4().hex[:10]}", text=text, source=source))
        self.buffer.redact(span.span_id, self.settings.redact_patterns)
        await self.notes.index(span)
        self.history.add_message(to_message(span))
        return span

    async def turn(self, user_text: str) -> str:
        if block := self.facts.system_block():
            self.history.add_system_message(f"Pinned facts:\n{block}")
        self.history.add_user_message(user_text)
        scrub_tool_noise(self.history)
        await self.history.reduce()
        settings = OpenAIChatPromptExecutionSettings(function_choice_behavior=FunctionChoiceBehavior.Auto())
        reply = await self.chat.get_chat_message_content(chat_history=self.history, settings=settings, kernel=self.kernel)
        if reply is None:
            return ""
        self.history.add_message(reply)
        collect_unreferenced(self.buffer, self.log, [self.book])
        return reply.content
