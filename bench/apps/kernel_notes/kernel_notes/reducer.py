"""Chat history reducers that compact the notes conversation."""

from __future__ import annotations

import logging

from typing_extensions import Self

from semantic_kernel.connectors.ai.chat_completion_client_base import ChatCompletionClientBase
from semantic_kernel.connectors.ai.prompt_execution_settings import PromptExecutionSettings
from semantic_kernel.contents import AuthorRole, ChatHistory, ChatHistoryReducer, ChatMessageContent
from semantic_kernel.contents.history_reducer.chat_history_reducer_utils import (
    SUMMARY_METADATA_KEY,
    locate_safe_reduction_index,
)

from kernel_notes.buffer import NoteBuffer
from kernel_notes.decision_log import DecisionLog
from kernel_notes.history_bridge import span_ids, to_message

logger = logging.getLogger(__name__)

NOTES_SUMMARY_PROMPT = "Summarize the notes above in at most six bullets. Keep names, numbers and decisions verbatim."
LINEAGE_KEY = "derived_from"


class _NotesReducer(ChatHistoryReducer):
    service: ChatCompletionClientBase
    log: DecisionLog

    def _split(self) -> tuple[list[ChatMessageContent], list[ChatMessageContent]] | None:
        if len(self.messages) <= self.target_count + self.threshold_count:
            return None
        cut = locate_safe_reduction_index(self.messages, self.target_count, self.threshold_count)
        return (self.messages[:cut], self.messages[cut:]) if cut else None

    async def _complete(self, messages: list[ChatMessageContent]) -> ChatMessageContent | None:
        chat = ChatHistory(messages=list(messages))
        chat.add_message(ChatMessageContent(role=AuthorRole.SYSTEM, content=NOTES_SUMMARY_PROMPT))
        settings = self.service.get_prompt_execution_settings_from_settings(PromptExecutionSettings())
        return await self.service.get_chat_message_content(chat_history=chat, settings=settings)


class RollingNotesReducer(_NotesReducer):
    """Keeps one rolling summary at the top; each pass folds the last summary into the next."""

    async def reduce(self) -> Self | None:
        if (parts := self._split()) is None:
            return None
        head, tail = parts
        try:
            if (summary := await self._complete(head)) is None:
                return None
        except Exception:
            logger.exception("notes summarization failed; keeping history")
            return None
        summary.metadata[SUMMARY_METADATA_KEY] = True
        self.messages = [summary, *tail]
        self.log.record("summarize", span_ids(head), f"history exceeded {self.target_count} messages")
        return self


class SourceGroundedReducer(_NotesReducer):
    """Summarizes from the original note spans, never from an earlier summary."""

    buffer: NoteBuffer

    def _sources_for(self, head: list[ChatMessageContent]) -> tuple[list[ChatMessageContent], list[str]]:
        sources: list[ChatMessageContent] = []
        for msg in head:
            if msg.metadata.get(SUMMARY_METADATA_KEY):
                spans = (self.buffer.get(sid) for sid in msg.metadata.get(LINEAGE_KEY, []))
                sources.extend(to_message(s) for s in spans if s is not None)
            elif msg.role != AuthorRole.SYSTEM:
                sources.append(msg)
        return sources, span_ids(sources)

    async def reduce(self) -> Self | None:
        if (parts := self._split()) is None:
            return None
        head, tail = parts
        sources, source_ids = self._sources_for(head)
        if not sources:
            return None
        rationale = f"history exceeded {self.target_count} messages; folded {len(head)} into one summary"
        self.log.record("summarize", source_ids, rationale, evidence=tuple(sorted(set(source_ids))))
        if (summary := await self._complete(sources)) is None:
            return None
        summary.metadata[SUMMARY_METADATA_KEY] = True
        summary.metadata[LINEAGE_KEY] = source_ids
        self.messages = [summary, *tail]
        return self
