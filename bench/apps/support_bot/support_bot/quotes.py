"""The agent quotes the customer's own words back in escalation tickets."""

from __future__ import annotations

from dataclasses import dataclass

from langchain_core.messages import BaseMessage


@dataclass
class QuoteRef:
    message_id: str
    start: int
    end: int


def quote_ref(msg: BaseMessage, phrase: str) -> QuoteRef | None:
    text = str(msg.content)
    at = text.find(phrase)
    if at < 0:
        return None
    return QuoteRef(msg.id, at, at + len(phrase))


def render_quote(ref: QuoteRef, messages: list[BaseMessage]) -> str:
    by_id = {m.id: m for m in messages}
    msg = by_id[ref.message_id]
    return '"' + str(msg.content)[ref.start : ref.end] + '"'
