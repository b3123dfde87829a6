"""Run and agent lifecycle hooks: usage accounting and context bookkeeping."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from agents import Agent, AgentHooks, RunContextWrapper, RunHooks, Tool

from .models import count_tokens
from .store import ContextStore

log = logging.getLogger(__name__)


@dataclass
class DeskContext:
    """The object passed to Runner.run(context=...)."""

    ticket_id: str
    store: ContextStore
    token_counts: dict[Any, int] = field(default_factory=dict)
    cited_span_ids: set[str] = field(default_factory=set)
    tool_calls: int = 0


class DeskRunHooks(RunHooks[DeskContext]):
    async def on_agent_start(self, context, agent: Agent[DeskContext]) -> None:
        ctx = context.context
        ctx.token_counts.update(
            {span.span_id: count_tokens(span.text) for span in ctx.store.live()}
        )

    async def on_tool_end(
        self, context: RunContextWrapper[DeskContext], agent: Agent[DeskContext], tool: Tool, result: object
    ) -> None:
        context.context.tool_calls += 1
        log.info("tool %s finished for %s", tool.name, context.context.ticket_id)

    async def on_handoff(
        self, context: RunContextWrapper[DeskContext], from_agent: Agent[DeskContext], to_agent: Agent[DeskContext]
    ) -> None:
        log.info("handoff %s -> %s", from_agent.name, to_agent.name)


class BudgetAgentHooks(AgentHooks[DeskContext]):
    """Keeps a per-version token tally for the budget gauge."""

    async def on_start(self, context, agent: Agent[DeskContext]) -> None:
        ctx = context.context
        for span in ctx.store.live():
            key = (span.span_id, span.version, span.content_hash)
            if key not in ctx.token_counts:
                ctx.token_counts[key] = count_tokens(span.text)

    async def on_end(self, context, agent: Agent[DeskContext], output: Any) -> None:
        ctx = context.context
        total = sum(
            n for key, n in ctx.token_counts.items() if isinstance(key, tuple)
        )
        log.debug("agent %s ended with %d tokens tracked", agent.name, total)
