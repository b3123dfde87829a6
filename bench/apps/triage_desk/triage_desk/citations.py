"""Citations from the agent's answers back into ticket text."""

from __future__ import annotations

from dataclasses import dataclass

from .spans import SpanStore


class StaleCitation(RuntimeError):
    pass


@dataclass
class TicketCitation:
    span_id: str
    start: int
    end: int
    ticket_ref: str


@dataclass
class CheckedQuote:
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int


def cite(store: SpanStore, span_id: str, needle: str, ticket_ref: str) -> TicketCitation | None:
    span = store.get(span_id)
    if span is None:
        return None
    start = span.content.find(needle)
    if start < 0:
        return None
    return TicketCitation(span_id=span_id, start=start, end=start + len(needle), ticket_ref=ticket_ref)


def render_citation(store: SpanStore, citation: TicketCitation) -> str:
    span = store.get(citation.span_id)
    if span is None:
        return f"[{citation.ticket_ref}: unavailable]"
    quoted = span.content[citation.start:citation.end]
    return f"“{quoted}” ({citation.ticket_ref})"


def quote(store: SpanStore, q: CheckedQuote) -> str:
    span = store.get(q.span_id)
    if span is None or span.version != q.version or span.content_hash != q.content_hash:
        raise StaleCitation(q.span_id)
    return span.content[q.start:q.end]
