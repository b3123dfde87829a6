"""Kernel plugin that lets the planner manage its own context buffer."""

from __future__ import annotations

import re
import uuid
from typing import Annotated

from semantic_kernel.connectors.ai.chat_completion_client_base import ChatCompletionClientBase
from semantic_kernel.connectors.ai.prompt_execution_settings import PromptExecutionSettings
from semantic_kernel.contents import ChatHistory
from semantic_kernel.functions import kernel_function

from sk_agents.decision_log import DecisionLog
from sk_agents.settings import AgentSettings
from sk_agents.spans import ContextSpan, SpanStore


class ContextPlugin:
    def __init__(
        self,
        store: SpanStore,
        log: DecisionLog,
        service: ChatCompletionClientBase,
        settings: AgentSettings,
        execution_settings: PromptExecutionSettings | None = None,
    ) -> None:
        self._store = store
        self._log = log
        self._service = service
        self._settings = settings
        self._exec = execution_settings or PromptExecutionSettings()
        self._pii = [re.compile(p) for p in settings.redaction_patterns]

    def _ids(self, raw: str) -> list[str]:
        return [s.strip() for s in raw.split(",") if s.strip() and s.strip() in self._store]

    @kernel_function(name="redact_span", description="Remove personal data from a context span.")
    def redact_span(
        self,
        span_id: Annotated[str, "Id of the span to redact"],
    ) -> Annotated[str, "Status message"]:
        target = self._store.get(span_id)
        body = target.text
        for rx in self._pii:
            body = rx.sub("[REDACTED]", body)
        if body == target.text:
            return f"nothing to redact in {span_id}"
        target.text = body
        target.version += 1
        target.source = "rewrite:redact"
        return f"redacted {span_id} (v{target.version})"

    @kernel_function(name="amend_span", description="Correct a factual error in a context span.")
    def amend_span(
        self,
        span_id: Annotated[str, "Id of the span to correct"],
        corrected_text: Annotated[str, "The full corrected text"],
        reason: Annotated[str, "What was wrong"],
    ) -> str:
        self._log.record("rewrite", [span_id], reason, evidence=[self._store.get(span_id).content_hash])
        span = self._store.replace_text(span_id, corrected_text, op="amend")
        return f"{span_id} now v{span.version}"

    @kernel_function(name="forget", description="Drop spans that are no longer relevant to the task.")
    def forget(
        self,
        span_ids: Annotated[str, "Comma separated span ids"],
        reason: Annotated[str, "Why these spans are no longer relevant"],
    ) -> str:
        ids = self._ids(span_ids)
        gone = [s for s in (self._store.discard(i) for i in ids) if s is not None]
        self._log.record(
            action="prune",
            span_ids=[s.span_id for s in gone],
            rationale=reason,
            evidence=[s.content_hash for s in gone],
        )
        return f"forgot {len(gone)} span(s)"

    @kernel_function(name="archive", description="Move superseded spans out of the working context.")
    def archive(
        self,
        span_ids: Annotated[str, "Comma separated span ids"],
        superseded_by: Annotated[str, "Id of the span that replaces them"],
    ) -> str:
        ids = self._ids(span_ids)
        spans = [self._store.get(i) for i in ids]
        self._log.record(
            action="prune",
            span_ids=ids,
            rationale=f"superseded by {superseded_by}",
            evidence=[f"{s.span_id}:{s.content_hash}:{s.text[:120]}" for s in spans],
        )
        for i in ids:
            self._store.discard(i)
        return f"archived {len(ids)} span(s)"

    @kernel_function(name="condense_summary", description="Shorten the running task summary.")
    async def condense_summary(
        self,
        max_words: Annotated[int, "Upper bound on summary length in words"] = 120,
    ) -> str:
        current = self._store.get(self._settings.summary_span_id)
        chat = ChatHistory(system_message=f"Rewrite this task summary in at most {max_words} words.")
        chat.add_user_message(current.text)
        reply = await self._service.get_chat_message_content(chat, self._exec)
        text = str(reply) if reply else current.text
        self._store.replace_text(current.span_id, text, op="summarize")
        return text

    @kernel_function(name="summarize_topic", description="Write a summary span for a set of spans.")
    async def summarize_topic(
        self,
        span_ids: Annotated[str, "Comma separated span ids to summarize"],
        topic: Annotated[str, "Short topic label"],
    ) -> str:
        sources: dict[str, ContextSpan] = {}
        queue = self._ids(span_ids)
        while queue:
            span = self._store.find(queue.pop())
            if span is None or span.span_id in sources:
                continue
            if span.is_summary:
                queue.extend(span.parent_ids)
                continue
            sources[span.span_id] = span
        if not sources:
            return "no source spans found"
        chat = ChatHistory(system_message=f"Summarize the following notes about {topic!r}.")
        for span in sources.values():
            chat.add_user_message(f"[{span.span_id}] {span.text}")
        reply = await self._service.get_chat_message_content(chat, self._exec)
        summary = self._store.add(
            ContextSpan(
                span_id=f"sum_{uuid.uuid4().hex[:10]}",
                text=str(reply),
                role="system",
                source="summarize",
                parent_ids=tuple(sources),
                is_summary=True,
            )
        )
        self._log.record("summarize", list(sources), f"topic summary: {topic}", [summary.span_id])
        return summary.span_id
