"""Scrubbing of tool output before it is shown to the model again."""

import re
from typing import Any

from langchain_core.messages import ToolMessage

from graph_memory.records import AgentState

_SECRET = re.compile(r"\b(api[_-]?key|token|password)\s*[:=]\s*\S+", re.IGNORECASE)


def _scrub(text: str) -> str:
    return _SECRET.sub(lambda m: f"{m.group(1)}=[hidden]", text)


async def scrub_tool_output(state: AgentState) -> dict[str, Any]:
    changed = []
    for msg in state["messages"]:
        if not isinstance(msg, ToolMessage) or not isinstance(msg.content, str):
            continue
        cleaned = _scrub(msg.content)
        if cleaned != msg.content:
            msg.content = cleaned
            changed.append(msg)
    return {"messages": changed} if changed else {}
