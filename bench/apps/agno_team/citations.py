"""Citations from team answers back into the context buffer."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional
from uuid import uuid4

from agno.models.message import Citations, DocumentCitation

from agno_team.buffer import SpanBuffer
from agno_team.models import Citation, ContextSpan


class StaleCitationError(RuntimeError):
    pass


def cite(span: ContextSpan, start: int, end: int, label: str = "") -> Citation:
    return Citation(
        citation_id=uuid4().hex,
        span_id=span.span_id,
        start=start,
        end=end,
        quote=span.content[start:end],
        label=label or span.span_id[:8],
    )


def render(citation: Citation, buffer: SpanBuffer) -> str:
    span = buffer.get(citation.span_id)
    if span is None:
        return f"[{citation.label}] (source removed)"
    excerpt = span.content[citation.start : citation.end]
    return f"[{citation.label}] \u201c{excerpt}\u201d"


def render_all(citations: List[Citation], buffer: SpanBuffer) -> str:
    return "\n".join(render(c, buffer) for c in citations)


@dataclass(frozen=True)
class PinnedCitation:
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int
    label: str = ""

    @classmethod
    def pin(cls, span: ContextSpan, start: int, end: int, label: str = "") -> "PinnedCitation":
        return cls(span.span_id, span.version, span.content_hash, start, end, label)


def resolve_pinned(citation: PinnedCitation, buffer: SpanBuffer) -> str:
    span = buffer.get(citation.span_id)
    if span is None:
        raise StaleCitationError(f"{citation.span_id} no longer in buffer")
    if (span.version, span.content_hash) != (citation.version, citation.content_hash):
        raise StaleCitationError(f"{citation.span_id} changed since it was cited")
    if citation.end > len(span.content):
        raise StaleCitationError(f"{citation.span_id} is shorter than the cited range")
    return span.content[citation.start : citation.end]


def to_agno_citations(pinned: List[PinnedCitation], buffer: SpanBuffer) -> Optional[Citations]:
    docs = []
    for c in pinned:
        try:
            text = resolve_pinned(c, buffer)
        except StaleCitationError:
            continue
        docs.append(DocumentCitation(document_title=c.label or c.span_id, cited_text=text))
    return Citations(documents=docs) if docs else None
