"""Citations from the model's answer back into context spans."""

from __future__ import annotations

from langchain_core.messages import BaseMessage

from .buffer import SpanBuffer
from .models import (
    Citation,
    PinnedQuote,
    SpanRecord,
    StaleSpanError,
    message_text,
    message_version,
)


def cite(rec: SpanRecord, quote: str) -> Citation | None:
    start = rec.content.find(quote)
    if start < 0:
        return None
    return Citation(span_id=rec.span_id, start=start, end=start + len(quote), quote=quote)


def pin(rec: SpanRecord, start: int, end: int) -> PinnedQuote:
    return PinnedQuote(rec.span_id, rec.version, rec.content_hash, start, end)


def render_citation(buffer: SpanBuffer, citation: Citation) -> str:
    rec = buffer.get(citation.span_id)
    if rec is None:
        return f"[missing source {citation.span_id}]"
    excerpt = rec.content[citation.start : citation.end]
    return f"\u201c{excerpt}\u201d [{citation.span_id[:8]}]"


def resolve_quote(buffer: SpanBuffer, quote: PinnedQuote) -> str:
    rec = buffer.get(quote.span_id)
    if rec is None:
        raise StaleSpanError(f"span {quote.span_id} no longer present")
    if rec.version != quote.version or rec.content_hash != quote.content_hash:
        raise StaleSpanError(
            f"quote pinned at v{quote.version}/{quote.content_hash[:8]}, "
            f"span is v{rec.version}/{rec.content_hash[:8]}"
        )
    if quote.end > len(rec.content):
        raise StaleSpanError(f"quote end {quote.end} beyond span length {len(rec.content)}")
    return rec.content[quote.start : quote.end]


def pin_message(msg: BaseMessage, start: int, end: int) -> PinnedQuote:
    version, digest = message_version(msg)
    return PinnedQuote(str(msg.id), version, digest, start, end)


def quote_from_message(messages: list[BaseMessage], quote: PinnedQuote) -> str | None:
    by_id = {m.id: m for m in messages}
    msg = by_id.get(quote.span_id)
    if msg is None:
        return None
    if message_version(msg) != (quote.version, quote.content_hash):
        return None
    text = message_text(msg)
    return text[quote.start : quote.end] if quote.end <= len(text) else None
