"""Conversation memory: summarize older turns and drop them from the state."""

from __future__ import annotations

from langchain_core.messages import HumanMessage, RemoveMessage, SystemMessage
from langchain_openai import ChatOpenAI

from support_bot.memory.journal import journal
from support_bot.state import SupportState

model = ChatOpenAI(model="gpt-4o-mini", temperature=0)
KEEP_LAST = 6


def summarize_conversation(state: SupportState) -> dict:
    summary = state.get("summary", "")
    if summary:
        prompt = (
            f"This is a summary of the conversation to date: {summary}\n\n"
            "Extend the summary by taking into account the new messages above:"
        )
    else:
        prompt = "Create a summary of the conversation above:"
    messages = state["messages"] + [HumanMessage(content=prompt)]
    response = model.invoke(messages)
    delete_messages = [RemoveMessage(id=m.id) for m in state["messages"][:-KEEP_LAST]]
    return {"summary": response.content, "messages": delete_messages}


def summarize_with_sources(state: SupportState) -> dict:
    old = state["messages"][:-KEEP_LAST]
    if not old:
        return {}
    ids = [m.id for m in old]
    transcript = "\n".join(f"{m.type}: {m.content}" for m in old)
    response = model.invoke([SystemMessage(content="Summarize this support conversation."), HumanMessage(content=transcript)])
    journal.write("summarize+remove", ids, "conversation over KEEP_LAST", summary_chars=len(response.content))
    return {
        "summary": response.content,
        "summary_sources": state.get("summary_sources", []) + ids,
        "messages": [RemoveMessage(id=i) for i in ids],
    }


def should_summarize(state: SupportState) -> str:
    return "summarize" if len(state["messages"]) > 12 else "end"
