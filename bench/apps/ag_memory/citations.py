from typing import List, Optional

from .models import Citation, Span, content_hash
from .store import SpanStore


def cite(span: Span, start: int, end: int) -> Citation:
    return Citation(span.span_id, span.version, span.hash, start, end)


def quote(store: SpanStore, c: Citation) -> Optional[str]:
    span = store.get(c.span_id)
    if span is None or span.version != c.version or content_hash(span.content) != c.content_hash:
        return None
    return span.content[c.start:c.end]


def quote_fast(store: SpanStore, c: Citation) -> str:
    span = store.get(c.span_id)
    return span.content[c.start:c.end]


def render_footnotes(store: SpanStore, cites: List[Citation]) -> List[str]:
    return [f"[{i}] {store.get(c.span_id).content[c.start:c.end]}" for i, c in enumerate(cites, 1)]
