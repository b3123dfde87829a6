"""Chat graph: StateGraph over MessagesState with a rolling summary."""

from __future__ import annotations

from typing import Literal

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import HumanMessage, RemoveMessage, SystemMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.runtime import Runtime

from .models import SPAN_HASH_KEY, SPAN_VERSION_KEY, message_text, message_version, stamp_message
from .operators import redact_messages
from .pruning import stale_tool_removals
from .settings import load_settings
from .tools import TOOLS
from .workflow import STORE

SETTINGS = load_settings()
TOOL_OUTPUT_LIMIT = 1200

llm = FakeListChatModel(responses=["Working on it.", "Here is what I found."])


class State(MessagesState):
    summary: str


def stamp(state: State) -> dict:
    unstamped = [m for m in state["messages"] if SPAN_HASH_KEY not in m.additional_kwargs]
    return {"messages": [stamp_message(m) for m in unstamped]}


def redact(state: State) -> dict:
    return {"messages": redact_messages(state["messages"])}


def shrink_tool_results(state: State) -> dict:
    updates = []
    for msg in state["messages"]:
        text = message_text(msg)
        if not isinstance(msg, ToolMessage) or len(text) <= TOOL_OUTPUT_LIMIT:
            continue
        version, _digest = message_version(msg)
        kwargs = {**msg.additional_kwargs, SPAN_VERSION_KEY: version + 1}
        updates.append(
            msg.model_copy(
                update={"content": text[:TOOL_OUTPUT_LIMIT] + " ...", "additional_kwargs": kwargs}
            )
        )
    return {"messages": updates}


def agent(state: State, config: RunnableConfig, runtime: Runtime) -> dict:
    summary = state.get("summary", "")
    preamble = [SystemMessage(content=f"Summary of earlier conversation: {summary}")] if summary else []
    reply = llm.invoke(preamble + state["messages"], config)
    return {"messages": [stamp_message(reply)]}


def prune(state: State) -> dict:
    return {"messages": stale_tool_removals(state["messages"], SETTINGS.keep_last_messages)}


def summarize_conversation(state: State) -> dict:
    summary = state.get("summary", "")
    if summary:
        prompt = (
            f"This is a summary of the conversation to date: {summary}\n\n"
            "Extend the summary by taking into account the new messages above:"
        )
    else:
        prompt = "Create a summary of the conversation above:"
    response = llm.invoke(state["messages"] + [HumanMessage(content=prompt)])
    delete = [RemoveMessage(id=m.id) for m in state["messages"][:-2] if m.id]
    return {"summary": message_text(response), "messages": delete}


def should_summarize(state: State) -> Literal["summarize_conversation", "__end__"]:
    if len(state["messages"]) > SETTINGS.summary_trigger_messages:
        return "summarize_conversation"
    return END


def build_graph():
    builder = StateGraph(State)
    builder.add_node("stamp", stamp)
    builder.add_node("redact", redact)
    builder.add_node("shrink_tool_results", shrink_tool_results)
    builder.add_node("agent", agent)
    builder.add_node("tools", ToolNode(TOOLS))
    builder.add_node("prune", prune)
    builder.add_node("summarize_conversation", summarize_conversation)
    builder.add_edge(START, "stamp")
    builder.add_edge("stamp", "redact")
    builder.add_edge("redact", "shrink_tool_results")
    builder.add_edge("shrink_tool_results", "agent")
    builder.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: "prune"})
    builder.add_edge("tools", "stamp")
    builder.add_conditional_edges("prune", should_summarize)
    builder.add_edge("summarize_conversation", END)
    return builder.compile(checkpointer=InMemorySaver(), store=STORE)


graph = build_graph()
