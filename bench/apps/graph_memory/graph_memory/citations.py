"""Citations from the answer back into the conversation."""

from typing import Iterable, Mapping, Sequence

from langchain_core.messages import BaseMessage, ToolMessage

from graph_memory.records import Citation, PinnedQuote
from graph_memory.textutil import as_text, digest


def cite_passages(messages: Sequence[BaseMessage], needles: Iterable[str]) -> list[Citation]:
    found: list[Citation] = []
    wanted = [n for n in needles if n.strip()]
    for msg in messages:
        if not isinstance(msg, ToolMessage) or not msg.id:
            continue
        text = as_text(msg.content)
        for needle in wanted:
            if (pos := text.find(needle)) >= 0:
                found.append(Citation(message_id=msg.id, start=pos, end=pos + len(needle), label=needle[:40]))
    return found


def quote(citation: Citation, by_id: Mapping[str, BaseMessage]) -> str:
    msg = by_id.get(citation.message_id)
    if msg is None:
        return ""
    return as_text(msg.content)[citation.start : citation.end]


def pin(msg: BaseMessage, start: int, end: int) -> PinnedQuote:
    text = as_text(msg.content)
    return PinnedQuote(message_id=msg.id or "", content_hash=digest(text), start=start, end=end)


def quote_pinned(pinned: PinnedQuote, by_id: Mapping[str, BaseMessage]) -> str | None:
    msg = by_id.get(pinned.message_id)
    if msg is None:
        return None
    text = as_text(msg.content)
    if digest(text) != pinned.content_hash or pinned.end > len(text):
        return None
    return text[pinned.start : pinned.end]
