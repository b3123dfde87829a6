"""Mapping between note spans and Semantic Kernel chat messages."""

from __future__ import annotations

import re

from semantic_kernel.contents import AuthorRole, ChatHistory, ChatMessageContent, TextContent

from kernel_notes.spans import NoteSpan, sha

SPAN_ID = "span_id"
SPAN_VERSION = "span_version"
SPAN_SHA = "span_sha"

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|\r[^\n]*")
_rendered: dict[str, str] = {}


def to_message(span: NoteSpan, role: AuthorRole = AuthorRole.USER) -> ChatMessageContent:
    meta = {SPAN_ID: span.span_id, SPAN_VERSION: span.version, SPAN_SHA: span.sha}
    return ChatMessageContent(role=role, items=[TextContent(text=span.text)], metadata=meta)


def span_ids(messages: list[ChatMessageContent]) -> list[str]:
    return [m.metadata[SPAN_ID] for m in messages if SPAN_ID in m.metadata]


def first_text(msg: ChatMessageContent) -> TextContent | None:
    return next((item for item in msg.items if isinstance(item, TextContent)), None)


def scrub_tool_noise(history: ChatHistory) -> int:
    """Strip ANSI colour codes and progress bars out of tool transcripts."""
    touched = 0
    for msg in history.messages:
        if msg.role != AuthorRole.TOOL or SPAN_ID not in msg.metadata:
            continue
        item = first_text(msg)
        if item is None:
            continue
        cleaned = _ANSI.sub("", item.text)
        if cleaned != item.text:
            item.text = cleaned
            touched += 1
    return touched


def replace_text(msg: ChatMessageContent, new_text: str) -> ChatMessageContent:
    item = first_text(msg)
    if item is None:
        msg.items.append(TextContent(text=new_text))
    else:
        item.text = new_text
    msg.metadata[SPAN_VERSION] = int(msg.metadata.get(SPAN_VERSION, 0)) + 1
    msg.metadata[SPAN_SHA] = sha(new_text)
    return msg


def render_for_prompt(msg: ChatMessageContent) -> str:
    """Markdown rendering used when notes are pasted into the planner prompt."""
    if (sid := msg.metadata.get(SPAN_ID)) in _rendered:
        return _rendered[sid]
    body = "\n".join(f"> {line}" for line in msg.content.splitlines() if line.strip())
    text = f"**{msg.name or msg.role.value}**\n{body}"
    if sid:
        _rendered[sid] = text
    return text

