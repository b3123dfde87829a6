"""Transcript handling for the chat messages a team run produces."""

from __future__ import annotations

import re
import uuid
from typing import Iterable, List, Sequence

from autogen_agentchat.messages import BaseAgentEvent, BaseChatMessage, TextMessage, ToolCallSummaryMessage

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
WHITESPACE = re.compile(r"\s+")


def normalize(text: str) -> str:
    text = EMAIL.sub("<email>", text)
    text = WHITESPACE.sub(" ", text)
    return text.strip()


def chat_only(stream: Iterable[BaseAgentEvent | BaseChatMessage]) -> List[BaseChatMessage]:
    return [m for m in stream if isinstance(m, BaseChatMessage)]


def scrub_in_place(messages: Sequence[BaseChatMessage]) -> int:
    touched = 0
    for msg in messages:
        if isinstance(msg, TextMessage) and EMAIL.search(msg.content):
            msg.content = EMAIL.sub("<email>", msg.content)
            touched += 1
    return touched


def clip_tool_summaries(messages: Sequence[BaseChatMessage], limit: int = 600) -> None:
    for msg in (m for m in messages if isinstance(m, ToolCallSummaryMessage)):
        if len(msg.content) <= limit:
            continue
        msg.content = msg.content[:limit].rstrip() + " ..."
        msg.metadata["clipped"] = "true"


def clipped_summaries(messages: Sequence[BaseChatMessage], limit: int = 600) -> List[BaseChatMessage]:
    out: List[BaseChatMessage] = []
    for msg in messages:
        if isinstance(msg, ToolCallSummaryMessage) and len(msg.content) > limit:
            msg = msg.model_copy(
                update={
                    "id": str(uuid.uuid4()),
                    "content": msg.content[:limit].rstrip() + " ...",
                    "metadata": {**msg.metadata, "derived_from": msg.id, "op": "clip"},
                }
            )
        out.append(msg)
    return out


def scrubbed_copy(msg: TextMessage) -> TextMessage:
    return msg.model_copy(
        update={
            "id": str(uuid.uuid4()),
            "content": normalize(msg.content),
            "metadata": {**msg.metadata, "derived_from": msg.id, "op": "scrub"},
        }
    )


def scrubbed(messages: Sequence[BaseChatMessage]) -> List[BaseChatMessage]:
    return [scrubbed_copy(m) if isinstance(m, TextMessage) else m for m in messages]


def render(messages: Sequence[BaseChatMessage]) -> str:
    return "\n\n".join(f"**{m.source}**: {m.to_text()}" for m in messages)
