"""Citations into KB and transcript spans, rendered into agent answers."""

from __future__ import annotations

from .models import Citation, ContextSpan
from .store import ContextStore


class StaleCitation(RuntimeError):
    pass


def cite(span: ContextSpan, sentence_index: int, label: str = "") -> Citation:
    start, end = span.char_offsets[sentence_index]
    return Citation(span_id=span.span_id, start=start, end=end, label=label)


def anchor(span: ContextSpan, sentence_index: int, label: str = "") -> Citation:
    start, end = span.char_offsets[sentence_index]
    return Citation(
        span_id=span.span_id,
        start=start,
        end=end,
        span_version=span.version,
        span_hash=span.content_hash,
        label=label,
    )


def quote(store: ContextStore, citation: Citation) -> str:
    text = store.get(citation.span_id).text
    return text[citation.start : citation.end].strip()


def quote_verified(store: ContextStore, citation: Citation) -> str:
    span = store.get(citation.span_id)
    if citation.span_version != span.version or citation.span_hash != span.content_hash:
        raise StaleCitation(
            f"{citation.span_id}: cited v{citation.span_version}, store has v{span.version}"
        )
    if citation.end > len(span.text):
        raise StaleCitation(f"{citation.span_id}: offsets past end of span")
    return span.text[citation.start : citation.end].strip()


def render_footnotes(store: ContextStore, citations: list[Citation]) -> str:
    lines = []
    for n, c in enumerate(citations, start=1):
        try:
            body = quote_verified(store, c)
        except StaleCitation:
            body = "(source changed since this answer was drafted)"
        lines.append(f"[{n}] {c.label or c.span_id}: {body}")
    return "\n".join(lines)


def render_inline(store: ContextStore, citations: list[Citation]) -> str:
    pieces = [f"\u201c{quote(store, c)}\u201d ({c.label})" for c in citations]
    return "; ".join(pieces)
