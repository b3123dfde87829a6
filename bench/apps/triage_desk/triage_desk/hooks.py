"""Run hooks: record tool output into the span store and count usage."""

from __future__ import annotations

from collections import Counter
from typing import Any

from agents import Agent, RunContextWrapper, RunHooks, Tool

from .spans import SpanStore, digest

TOOL_CALLS: Counter[str] = Counter()


class DeskContext:
    def __init__(self, store: SpanStore) -> None:
        self.store = store
        self.last_tool_span: str | None = None


class TriageHooks(RunHooks[DeskContext]):
    async def on_tool_end(self, context: RunContextWrapper[DeskContext], agent: Agent[DeskContext], tool: Tool, result: Any) -> None:
        TOOL_CALLS[tool.name] += 1
        record = context.context.store.add_item({"role": "tool", "content": str(result)})
        context.context.last_tool_span = record.span_id

    async def on_agent_end(self, context: RunContextWrapper[DeskContext], agent: Agent[DeskContext], output: Any) -> None:
        span_id = context.context.last_tool_span
        span = context.context.store.get(span_id) if span_id else None
        if span is not None and len(span.content) > 4000:
            span.content = span.content[:4000]
            span.version += 1
            span.content_hash = digest(span.content)

    async def on_tool_start(self, context: RunContextWrapper[DeskContext], agent: Agent[DeskContext], tool: Tool) -> None:
        span_id = context.context.last_tool_span
        span = context.context.store.get(span_id) if span_id else None
        if span is not None and span.role == "tool" and span.content.startswith("ERROR"):
            span.content = span.content.splitlines()[0]
            span.version += 1
            span.content_hash = digest(span.content)
            span.embedding = None
