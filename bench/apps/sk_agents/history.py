"""Helpers over the Semantic Kernel chat history that backs the agent thread."""

from __future__ import annotations

import re
import uuid
from typing import Iterable

from semantic_kernel.agents import ChatHistoryAgentThread
from semantic_kernel.contents import (
    ChatHistory,
    ChatMessageContent,
    FunctionResultContent,
    TextContent,
)

SPAN_ID_KEY = "span_id"


def span_id_of(message: ChatMessageContent) -> str:
    sid = message.metadata.get(SPAN_ID_KEY)
    if sid is None:
        sid = f"msg_{uuid.uuid4().hex[:12]}"
        message.metadata[SPAN_ID_KEY] = sid
    return sid


def _locate(history: ChatHistory, span_id: str) -> tuple[int, ChatMessageContent] | None:
    for idx, message in enumerate(history.messages):
        if message.metadata.get(SPAN_ID_KEY) == span_id:
            return idx, message
    return None


def _scrub(text: str, patterns: Iterable[str]) -> str:
    for pattern in patterns:
        text = re.sub(pattern, "[REDACTED]", text)
    return text


def redact_message(history: ChatHistory, span_id: str, patterns: Iterable[str]) -> bool:
    found = _locate(history, span_id)
    if found is None:
        return False
    _, msg = found
    patterns = list(patterns)
    for item in msg.items:
        if isinstance(item, TextContent):
            item.text = _scrub(item.text, patterns)
    return True


async def shrink_tool_results(thread: ChatHistoryAgentThread, limit: int) -> int:
    shrunk = 0
    async for msg in thread.get_messages():
        for part in msg.items:
            if not isinstance(part, FunctionResultContent):
                continue
            body = str(part.result)
            if len(body) > limit:
                part.result = body[:limit] + " …[truncated]"
                shrunk += 1
    return shrunk


class RedactingEditor:
    """Redaction that keeps the original message readable for anything still citing it."""

    def __init__(self, history: ChatHistory) -> None:
        self.history = history
        self.archive: dict[str, ChatMessageContent] = {}

    def redact(self, span_id: str, patterns: Iterable[str]) -> ChatMessageContent | None:
        found = _locate(self.history, span_id)
        if found is None:
            return None
        idx, old = found
        patterns = list(patterns)
        items = [
            TextContent(text=_scrub(i.text, patterns)) if isinstance(i, TextContent) else i
            for i in old.items
        ]
        new_id = f"msg_{uuid.uuid4().hex[:12]}"
        replacement = ChatMessageContent(
            role=old.role,
            name=old.name,
            items=items,
            metadata={**old.metadata, SPAN_ID_KEY: new_id, "supersedes": span_id},
        )
        old.metadata["superseded_by"] = new_id
        self.archive[span_id] = old
        self.history.messages[idx] = replacement
        return replacement


def transcript(history: ChatHistory, *, include_tools: bool = False) -> str:
    lines: list[str] = []
    for msg in history.messages:
        sid = msg.metadata.get(SPAN_ID_KEY, "?")
        text = msg.content
        if not text and include_tools:
            text = " ".join(
                str(i.result) for i in msg.items if isinstance(i, FunctionResultContent)
            )
        if text:
            lines.append(f"{msg.role.value}[{sid}]: {text}")
    return "\n".join(lines)
