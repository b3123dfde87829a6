"""Post-process the model's reply before it is shown and stored."""

import re

from langchain_core.messages import AIMessage

from support_bot.state import SupportState

SIGNOFF = re.compile(r"\n*(Best regards|Kind regards),?\s*\n.*$", re.S)


def strip_signoff(state: SupportState) -> dict:
    last = state["messages"][-1]
    if not isinstance(last, AIMessage) or not isinstance(last.content, str):
        return {}
    last.content = SIGNOFF.sub("", last.content).rstrip()
    return {}


def mark_reviewed(state: SupportState) -> dict:
    last = state["messages"][-1]
    last.response_metadata["reviewed"] = True
    return {}


def polished_reply(state: SupportState) -> dict:
    last = state["messages"][-1]
    text = SIGNOFF.sub("", str(last.content)).rstrip()
    return {"messages": [AIMessage(content=text, name="polished")]}
