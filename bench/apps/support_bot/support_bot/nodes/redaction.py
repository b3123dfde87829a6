"""Tool results often contain card numbers and addresses; mask them before the model reasons over them."""

from __future__ import annotations

import re
import uuid

from langchain_core.messages import BaseMessage, RemoveMessage, ToolMessage

from support_bot.memory.journal import journal
from support_bot.state import SupportState

CARD = re.compile(r"\b(?:\d[ -]?){13,16}\b")
ADDRESS = re.compile(r"\d+\s+\w+\s+(Street|St|Avenue|Ave|Road|Rd)\b", re.I)


def mask(text: str) -> str:
    return ADDRESS.sub("<address>", CARD.sub("<card>", text))


def redact_tool_results(state: SupportState) -> dict:
    for msg in state["messages"]:
        if isinstance(msg, ToolMessage) and isinstance(msg.content, str):
            msg.content = mask(msg.content)
    return {}


def redact_by_replacement(state: SupportState) -> dict:
    """Replace the tool message through the reducer: same id, new content."""
    updates = []
    for msg in state["messages"]:
        if msg.type == "tool" and CARD.search(str(msg.content)):
            updates.append(ToolMessage(content=mask(str(msg.content)), tool_call_id=msg.tool_call_id, id=msg.id))
    return {"messages": updates}


def redact_as_new_message(state: SupportState) -> dict:
    updates: list[BaseMessage] = []
    for msg in state["messages"]:
        if not isinstance(msg, ToolMessage) or not CARD.search(str(msg.content)):
            continue
        masked = msg.model_copy(update={"content": mask(str(msg.content)), "id": str(uuid.uuid4())})
        journal.write("redact", [msg.id], "card number in tool output", replaced_by=masked.id)
        updates += [RemoveMessage(id=msg.id), masked]
    return {"messages": updates}


def masked_transcript(messages: list[BaseMessage]) -> str:
    return "\n".join(f"{m.type}: {mask(str(m.content))}" for m in messages)
