"""Case summaries kept at the head of the working context."""

from __future__ import annotations

import uuid

from strands import Agent
from strands.agent.conversation_manager.compression.context_compression import generate_summary
from strands.types.content import Message, Messages

from .buffer import ContextBuffer, span_meta, text_of
from .models import digest
from .settings import settings

SUMMARY_KIND = "case-summary"


def _is_summary(message: Message) -> bool:
    return span_meta(message).get("kind") == SUMMARY_KIND


def _tag_summary(message: Message, **extra: object) -> Message:
    message["tracking_id"] = str(uuid.uuid4())
    meta = span_meta(message)
    meta.update(kind=SUMMARY_KIND, span_version=0, content_hash=digest(text_of(message)), **extra)
    return message


class RollingSummarizer:
    """Keeps one short running summary so long cases fit the token budget."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.current: Message | None = None

    async def refresh(self, new_messages: Messages) -> Message:
        inputs = ([self.current] if self.current else []) + list(new_messages)
        summary = await generate_summary(inputs, self.agent.model, settings.prompts["summary"].text)
        self.current = _tag_summary(summary, covers=len(new_messages))
        return self.current


async def summarize_from_sources(store: ContextBuffer, archive: Messages) -> Message:
    sources = [m for m in list(archive) + list(store.messages) if not _is_summary(m)]
    summary = await generate_summary(sources, store.agent.model, settings.prompts["summary"].text)
    return _tag_summary(summary, source_ids=[m["tracking_id"] for m in sources if "tracking_id" in m])


async def extend_summary(store: ContextBuffer, previous: Message, new_messages: Messages) -> Message:
    prev_meta = span_meta(previous)
    root_ids = list(prev_meta.get("root_ids") or prev_meta.get("source_ids", []))
    summary = await generate_summary([previous, *new_messages], store.agent.model, settings.prompts["summary"].text)
    for m in new_messages:
        root_ids.append(m["tracking_id"])
        store.hold(m["tracking_id"], "summary-lineage")
    return _tag_summary(
        summary,
        parent_summary=previous.get("tracking_id"),
        depth=int(prev_meta.get("depth", 0)) + 1,
        root_ids=root_ids,
    )
