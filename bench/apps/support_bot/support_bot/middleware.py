"""The same bot as a `create_agent` agent, with its memory handling as middleware."""

from __future__ import annotations

import uuid
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware, AgentState
from langchain_core.messages import RemoveMessage, ToolMessage
from langgraph.runtime import Runtime

from support_bot.memory.journal import journal
from support_bot.tools import TOOLS

OLD_TOOL_RESULT = "[tool result cleared to save context]"


class ClearOldToolResults(AgentMiddleware):
    """Blank out tool results older than the last few turns."""

    keep: int = 3

    def before_model(self, state: AgentState, runtime: Runtime) -> dict[str, Any] | None:
        tool_msgs = [m for m in state["messages"] if isinstance(m, ToolMessage)]
        for m in tool_msgs[: -self.keep]:
            if m.content == OLD_TOOL_RESULT:
                continue
            m.content = OLD_TOOL_RESULT
        return None


class JournalledToolClearing(AgentMiddleware):
    keep: int = 3

    def before_model(self, state: AgentState, runtime: Runtime) -> dict[str, Any] | None:
        tool_msgs = [m for m in state["messages"] if isinstance(m, ToolMessage)]
        old = [m for m in tool_msgs[: -self.keep] if m.content != OLD_TOOL_RESULT]
        if not old:
            return None
        journal.write("clear_tool_results", [m.id for m in old], "older than keep", sizes=[len(str(m.content)) for m in old])
        removals = [RemoveMessage(id=m.id) for m in old]
        placeholders = [m.model_copy(update={"content": OLD_TOOL_RESULT, "id": str(uuid.uuid4())}) for m in old]
        return {"messages": removals + placeholders}


agent = create_agent("openai:gpt-4o-mini", tools=TOOLS, middleware=[JournalledToolClearing()])
