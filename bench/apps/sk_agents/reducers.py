"""History reducers used by the planner thread."""

from __future__ import annotations

import sys

if sys.version_info < (3, 12):
    from typing_extensions import override
else:
    from typing import override

from typing import Self

from pydantic import Field
from semantic_kernel.connectors.ai.chat_completion_client_base import ChatCompletionClientBase
from semantic_kernel.connectors.ai.prompt_execution_settings import PromptExecutionSettings
from semantic_kernel.contents import AuthorRole, ChatHistory, ChatMessageContent
from semantic_kernel.contents.history_reducer.chat_history_reducer import ChatHistoryReducer
from semantic_kernel.contents.history_reducer.chat_history_reducer_utils import (
    SUMMARY_METADATA_KEY,
    locate_safe_reduction_index,
    locate_summarization_boundary,
)

from sk_agents.decision_log import DecisionLog
from sk_agents.history import span_id_of, transcript
from sk_agents.spans import digest

SUMMARY_PROMPT = (
    "Summarize the conversation so far for the planner. Keep decisions, open questions, "
    "file names, and any constraint the user stated. At most 8 sentences."
)


def _is_pinned(msg: ChatMessageContent) -> bool:
    return msg.role in (AuthorRole.SYSTEM, AuthorRole.DEVELOPER) or bool(msg.metadata.get("pinned"))


class AuditedTruncationReducer(ChatHistoryReducer):
    decision_log: DecisionLog = Field(exclude=True)

    @override
    async def reduce(self) -> Self | None:
        history = self.messages
        cut = locate_safe_reduction_index(history, self.target_count, self.threshold_count)
        if not cut:
            return None
        dropped_ids = [span_id_of(m) for m in history[:cut]]
        del self.messages[:cut]
        self.decision_log.record(
            action="prune",
            span_ids=dropped_ids,
            rationale=f"history over target ({self.target_count}+{self.threshold_count})",
            evidence=[digest(m.content) for m in history[:cut]],
        )
        return self


class PinnedTruncationReducer(ChatHistoryReducer):
    decision_log: DecisionLog = Field(exclude=True)

    @override
    async def reduce(self) -> Self | None:
        history = list(self.messages)
        cut = locate_safe_reduction_index(history, self.target_count, self.threshold_count)
        if not cut:
            return None
        doomed = [m for m in history[:cut] if not _is_pinned(m)]
        if not doomed:
            return None
        self.decision_log.record(
            action="prune",
            span_ids=[span_id_of(m) for m in doomed],
            rationale=f"history over target ({self.target_count}+{self.threshold_count})",
            evidence=[f"{span_id_of(m)}:{digest(m.content)}:{m.content[:80]}" for m in doomed],
        )
        keep = [m for m in history[:cut] if _is_pinned(m)]
        self.messages = [*keep, *history[cut:]]
        return self


class RollingSummaryReducer(ChatHistoryReducer):
    service: ChatCompletionClientBase
    decision_log: DecisionLog = Field(exclude=True)
    execution_settings: PromptExecutionSettings | None = None
    running_summary: str = ""

    @override
    async def reduce(self) -> Self | None:
        history = self.messages
        cut = locate_safe_reduction_index(history, self.target_count, self.threshold_count)
        if not cut:
            return None
        chunk = [m for m in history[:cut] if not m.metadata.get(SUMMARY_METADATA_KEY)]
        prompt = ChatHistory(system_message=SUMMARY_PROMPT)
        prompt.add_user_message(
            f"Summary so far:\n{self.running_summary or '(none)'}\n\nNew turns:\n"
            f"{transcript(ChatHistory(messages=chunk))}"
        )
        settings = self.execution_settings or PromptExecutionSettings()
        reply = await self.service.get_chat_message_content(prompt, settings)
        if reply is None:
            return None
        self.decision_log.record(
            action="summarize",
            span_ids=[span_id_of(m) for m in history[:cut]],
            rationale="rolling summary of turns past the target window",
            evidence=[digest(m.content) for m in history[:cut]],
        )
        self.running_summary = reply.content
        summary = ChatMessageContent(
            role=AuthorRole.SYSTEM,
            content=self.running_summary,
            metadata={SUMMARY_METADATA_KEY: True},
        )
        self.messages = [summary, *history[cut:]]
        return self


class LineageSummaryReducer(ChatHistoryReducer):
    service: ChatCompletionClientBase
    decision_log: DecisionLog = Field(exclude=True)
    execution_settings: PromptExecutionSettings | None = None
    archive: list[ChatMessageContent] = Field(default_factory=list, exclude=True)

    @override
    async def reduce(self) -> Self | None:
        history = self.messages
        boundary = locate_summarization_boundary(history)
        cut = locate_safe_reduction_index(
            history, self.target_count, self.threshold_count, offset_count=boundary
        )
        if not cut:
            return None
        sources = history[:cut]
        prior = [m for m in sources if m.metadata.get(SUMMARY_METADATA_KEY)]
        fresh = [m for m in sources if not m.metadata.get(SUMMARY_METADATA_KEY)]
        roots = {r for m in prior for r in m.metadata.get("root_span_ids", ())}
        roots.update(span_id_of(m) for m in fresh)
        generation = 1 + max((int(m.metadata.get("generation", 0)) for m in prior), default=0)

        prompt = ChatHistory(system_message=SUMMARY_PROMPT)
        prompt.add_user_message(transcript(ChatHistory(messages=sources)))
        settings = self.execution_settings or PromptExecutionSettings()
        reply = await self.service.get_chat_message_content(prompt, settings)
        if reply is None:
            return None
        reply.role = AuthorRole.SYSTEM
        reply.metadata.update({
            SUMMARY_METADATA_KEY: True,
            "parent_span_ids": [span_id_of(m) for m in sources],
            "root_span_ids": sorted(roots),
            "generation": generation,
        })
        span_id_of(reply)
        self.decision_log.record(
            action="summarize",
            span_ids=[span_id_of(m) for m in sources],
            rationale=f"generation {generation} summary over {len(roots)} root turns",
            evidence=[digest(m.content) for m in sources],
        )
        self.archive.extend(sources)
        self.messages = [reply, *history[cut:]]
        return self
