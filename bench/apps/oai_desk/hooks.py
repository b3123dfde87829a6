"""Run lifecycle hooks: mirror session items into the buffer and keep an audit trail."""

from __future__ import annotations

import time
from typing import Any

from agents import Agent, RunContextWrapper, RunHooks, Tool, TResponseInputItem
from agents.run_context import AgentHookContext

from .context import DeskContext
from .models import DeskSpan


class DeskHooks(RunHooks[DeskContext]):
    async def on_agent_start(self, context: AgentHookContext[DeskContext], agent: Agent[DeskContext]) -> None:
        desk = context.context
        for row in desk.session.rows():
            if row["tombstone"] or desk.buffer.get(row["item_id"]) is not None:
                continue
            desk.buffer.add(DeskSpan.from_input_item(row["item_id"], row["item"]))

    async def on_llm_start(
        self,
        context: RunContextWrapper[DeskContext],
        agent: Agent[DeskContext],
        system_prompt: str | None,
        input_items: list[TResponseInputItem],
    ) -> None:
        self._append(context.context, "llm_start", agent.name, f"{len(input_items)} items")

    async def on_handoff(
        self,
        context: RunContextWrapper[DeskContext],
        from_agent: Agent[DeskContext],
        to_agent: Agent[DeskContext],
    ) -> None:
        self._append(context.context, "handoff", from_agent.name, to_agent.name)

    async def on_tool_end(
        self,
        context: RunContextWrapper[DeskContext],
        agent: Agent[DeskContext],
        tool: Tool,
        result: Any,
    ) -> None:
        self._append(context.context, "tool_end", agent.name, tool.name)

    @staticmethod
    def _append(desk: DeskContext, event: str, actor: str, detail: str) -> None:
        desk.audit.append({"at": f"{time.time():.3f}", "event": event, "actor": actor, "detail": detail})
