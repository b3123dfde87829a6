"""Keep the prompt inside the model's window."""

from __future__ import annotations

from langchain_core.messages import RemoveMessage, SystemMessage, trim_messages
from langchain_core.messages.utils import count_tokens_approximately
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from support_bot.memory.journal import journal
from support_bot.state import SupportState

MAX_TOKENS = 6000


def prompt_messages(state: SupportState) -> list:
    """What the model sees this turn. The state itself is left alone."""
    trimmed = trim_messages(
        state["messages"],
        strategy="last",
        token_counter=count_tokens_approximately,
        max_tokens=MAX_TOKENS,
        start_on="human",
        include_system=True,
    )
    summary = state.get("summary")
    if summary:
        trimmed = [SystemMessage(content=f"Summary of earlier conversation: {summary}")] + trimmed
    return trimmed


def hard_reset(state: SupportState) -> dict:
    """Called when the customer starts a new topic."""
    keep = state["messages"][-2:]
    return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *keep]}


def hard_reset_logged(state: SupportState) -> dict:
    keep = state["messages"][-2:]
    dropped = [m.id for m in state["messages"][:-2]]
    journal.write("reset", dropped, "customer changed topic")
    return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *keep]}


def pre_model_hook(state):
    messages = state["messages"]
    if count_tokens_approximately(messages) > MAX_TOKENS:
        del messages[1:-8]
    return {"llm_input_messages": messages}
