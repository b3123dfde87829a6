"""The support graph."""

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langchain_openai import ChatOpenAI

from support_bot.nodes.memory import should_summarize, summarize_conversation
from support_bot.nodes.normalize import strip_signoff
from support_bot.nodes.redaction import redact_tool_results
from support_bot.nodes.trim import prompt_messages
from support_bot.state import SupportState
from support_bot.tools import TOOLS

llm = ChatOpenAI(model="gpt-4o-mini").bind_tools(TOOLS)


def agent(state: SupportState) -> dict:
    return {"messages": [llm.invoke(prompt_messages(state))]}


def build_graph():
    g = StateGraph(SupportState)
    g.add_node("agent", agent)
    g.add_node("tools", ToolNode(TOOLS))
    g.add_node("redact", redact_tool_results)
    g.add_node("polish", strip_signoff)
    g.add_node("summarize", summarize_conversation)
    g.add_edge(START, "agent")
    g.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: "polish"})
    g.add_edge("tools", "redact")
    g.add_edge("redact", "agent")
    g.add_conditional_edges("polish", should_summarize, {"summarize": "summarize", "end": END})
    g.add_edge("summarize", END)
    return g.compile(checkpointer=InMemorySaver())
