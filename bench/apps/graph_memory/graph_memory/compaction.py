"""Nodes that keep the thread's message list within budget."""

from typing import Any

from langchain_core.messages import AIMessage, RemoveMessage, SystemMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately, trim_messages
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.runtime import Runtime

from graph_memory.decision_log import DecisionLog
from graph_memory.records import AgentState, GraphContext


def _is_stale_tool_call(msg: Any, answered: set[str]) -> bool:
    if isinstance(msg, AIMessage) and msg.tool_calls:
        return all(tc["id"] in answered for tc in msg.tool_calls)
    return isinstance(msg, ToolMessage) and msg.tool_call_id in answered


async def compact_context(state: AgentState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Drop answered tool traffic that has scrolled out of the window."""
    msgs = state["messages"]
    window = runtime.context.max_context_messages
    if len(msgs) <= window:
        return {}
    older = msgs[:-window]
    answered = {m.tool_call_id for m in older if isinstance(m, ToolMessage)}
    stale = [m for m in older if _is_stale_tool_call(m, answered) and m.id]
    if not stale:
        return {}
    log = DecisionLog(runtime.store, runtime.context.thread_id)
    reason = f"{len(stale)} answered tool messages outside the {window}-message window"
    await log.record("compact", reason, [m.id for m in stale])
    return {"messages": [RemoveMessage(id=m.id) for m in stale]}


async def trim_context(state: AgentState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Fast path used by the tools loop: cut the oldest non-system turns."""
    msgs = state["messages"]
    limit = runtime.context.max_context_messages
    first = 1 if msgs and isinstance(msgs[0], SystemMessage) else 0
    overflow = len(msgs) - limit
    if overflow <= 0:
        return {}
    dropped = msgs[first : first + overflow]
    del msgs[first : first + overflow]
    log = DecisionLog(runtime.store, runtime.context.thread_id)
    await log.record("trim", f"thread above {limit} messages", [m.id for m in dropped if m.id])
    return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *msgs]}


async def reset_thread(state: AgentState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Used when the user says 'start over': keep only the latest exchange."""
    kept = trim_messages(state["messages"], max_tokens=1024, token_counter=count_tokens_approximately,
                         strategy="last", start_on="human", include_system=True)
    return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *kept]}
