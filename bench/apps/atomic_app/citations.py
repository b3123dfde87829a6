"""Citations from answers back into spans."""

from __future__ import annotations

from typing import Iterable, Optional

from .models import Citation, SpanBody, VerifiedCitation
from .store import SpanHistory


def cite(body: SpanBody, quote: str) -> Optional[Citation]:
    start = body.text.find(quote)
    if start < 0:
        return None
    return Citation(span_id=body.span_id, start=start, end=start + len(quote), quote=quote)


def cite_all(history: SpanHistory, quotes: dict[str, str]) -> list[Citation]:
    out = []
    for span_id, quote in quotes.items():
        body = history.body(span_id)
        if body is not None and (c := cite(body, quote)) is not None:
            history.hold(span_id, "citations")
            out.append(c)
    return out


def render_citations(history: SpanHistory, citations: Iterable[Citation]) -> list[str]:
    lines = []
    for n, c in enumerate(citations, 1):
        body = history.body(c.span_id)
        if body is None:
            continue
        excerpt = body.text[c.start:c.end]
        lines.append(f"[{n}] {c.span_id}: \u201c{excerpt}\u201d")
    return lines


def cite_verified(body: SpanBody, quote: str) -> Optional[VerifiedCitation]:
    start = body.text.find(quote)
    if start < 0:
        return None
    return VerifiedCitation(body.span_id, body.version, body.content_hash, start, start + len(quote))


def resolve_verified(history: SpanHistory, c: VerifiedCitation) -> Optional[str]:
    body = history.body(c.span_id)
    if body is None or body.version != c.version or body.content_hash != c.content_hash:
        return None
    return body.text[c.start:c.end]
