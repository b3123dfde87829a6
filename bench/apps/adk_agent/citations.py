"""Citations from the briefing back into context spans."""

from __future__ import annotations

from typing import Optional

from .buffer import ContextBuffer
from .models import AnchoredCitation
from .models import Citation
from .models import SpanRecord
from .models import StaleSpanError


def cite(rec: SpanRecord, quote: str, label: str = "") -> Optional[Citation]:
    start = rec.content.find(quote)
    if start < 0:
        return None
    return Citation(span_id=rec.span_id, start=start, end=start + len(quote), label=label)


def render_citation(buffer: ContextBuffer, citation: Citation) -> str:
    rec = buffer.find(citation.span_id)
    if rec is None:
        return f"[{citation.label or citation.span_id}: source unavailable]"
    excerpt = rec.content[citation.start : citation.end]
    return f"\u201c{excerpt}\u201d [{citation.label or citation.span_id}]"


def render_footnotes(buffer: ContextBuffer, citations: list[Citation]) -> str:
    return "\n".join(
        f"{n}. {render_citation(buffer, c)}" for n, c in enumerate(citations, start=1)
    )


def anchor(rec: SpanRecord, quote: str, label: str = "") -> Optional[AnchoredCitation]:
    start = rec.content.find(quote)
    if start < 0:
        return None
    return AnchoredCitation(
        span_id=rec.span_id,
        version=rec.version,
        content_hash=rec.content_hash,
        start=start,
        end=start + len(quote),
        label=label,
    )


def resolve(buffer: ContextBuffer, citation: AnchoredCitation) -> str:
    rec = buffer.find(citation.span_id)
    if rec is None:
        raise StaleSpanError(f"span {citation.span_id} is gone")
    if rec.version != citation.version or rec.content_hash != citation.content_hash:
        raise StaleSpanError(
            f"citation built against v{citation.version}, span is v{rec.version}"
        )
    if citation.end > len(rec.content):
        raise StaleSpanError("citation runs past the end of the span")
    return rec.content[citation.start : citation.end]
