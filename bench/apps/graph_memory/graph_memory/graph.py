"""Assembly of the support agent graph."""

from typing import Any

from langchain.chat_models import init_chat_model
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from langmem import create_memory_store_manager

from graph_memory.compaction import compact_context, trim_context
from graph_memory.normalize import scrub_tool_output
from graph_memory.records import AgentState, GraphContext
from graph_memory.settings import NOTES_NS, AgentSettings, memory_ns
from graph_memory.summarize import make_digest_node
from graph_memory.textutil import as_text
from graph_memory.tools import amend_memory, note_tools


def _last_human(state: AgentState) -> str:
    for msg in reversed(state["messages"]):
        if isinstance(msg, HumanMessage):
            return as_text(msg.content)
    return ""


def build_graph(settings: AgentSettings, store: BaseStore | None = None, checkpointer: Any = None):
    model = init_chat_model(settings.model)
    tools = [*note_tools(), amend_memory]
    bound = model.bind_tools(tools)
    manager = create_memory_store_manager(model, namespace=(NOTES_NS, "{langgraph_user_id}"))

    async def agent(state: AgentState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
        recalled = []
        if query := _last_human(state):
            recalled = await runtime.store.asearch(memory_ns(runtime.context.user_id), query=query, limit=5)
        notes = "\n".join(f"- {it.value['content']}" for it in recalled if not it.value.get("tombstoned"))
        system = SystemMessage(content=f"{settings.system_prompt}\n\nKnown about this user:\n{notes or '- nothing yet'}")
        reply = await bound.ainvoke([system, *state["messages"]])
        return {"messages": [reply]}

    async def remember(state: AgentState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
        config = {"configurable": {"langgraph_user_id": runtime.context.user_id}}
        await manager.ainvoke({"messages": state["messages"], "max_steps": 1}, config=config)
        return {}

    builder = StateGraph(AgentState, context_schema=GraphContext)
    builder.add_node("scrub", scrub_tool_output)
    builder.add_node("compact", compact_context)
    builder.add_node("agent", agent)
    builder.add_node("tools", ToolNode(tools))
    builder.add_node("trim", trim_context)
    builder.add_node("digest", make_digest_node(model, settings.digest_max_chars))
    builder.add_node("remember", remember)
    builder.add_edge(START, "compact")
    builder.add_edge("compact", "agent")
    builder.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: "digest"})
    builder.add_edge("tools", "scrub")
    builder.add_edge("scrub", "trim")
    builder.add_edge("trim", "agent")
    builder.add_edge("digest", "remember")
    builder.add_edge("remember", END)
    return builder.compile(store=store or InMemoryStore(), checkpointer=checkpointer or InMemorySaver())
