"""Citations from answers back into the context spans they quote."""
from __future__ import annotations

import re
from typing import List, Sequence

from langroid.agent.chat_document import ChatDocument

from .models import Citation, ContextSpan, PinnedCitation, StaleSpanError, digest
from .store import SpanBuffer

_QUOTE = re.compile(r"\u201c([^\u201d]{12,})\u201d|\"([^\"]{12,})\"")


def quoted_fragments(answer: ChatDocument) -> List[str]:
    return [a or b for a, b in _QUOTE.findall(answer.content)]


def build_citations(answer: ChatDocument, spans: Sequence[ContextSpan]) -> List[Citation]:
    out: List[Citation] = []
    for n, frag in enumerate(quoted_fragments(answer), start=1):
        for span in spans:
            pos = span.content.find(frag)
            if pos >= 0:
                out.append(Citation(span.span_id, pos, pos + len(frag), label=f"[{n}]"))
                break
    return out


def render_citation(buffer: SpanBuffer, cite: Citation) -> str:
    span = buffer.get(cite.span_id)
    excerpt = span.content[cite.start : cite.end]
    return f"{cite.label} \u2026{excerpt}\u2026"


def pin(span: ContextSpan, start: int, end: int, label: str = "") -> PinnedCitation:
    return PinnedCitation(ref=span.ref, start=start, end=end, label=label)


def render_pinned(buffer: SpanBuffer, cite: PinnedCitation) -> str:
    span = buffer.find(cite.ref.span_id)
    if span is None:
        raise StaleSpanError(f"{cite.ref.span_id} is gone")
    if span.version != cite.ref.version or digest(span.content) != cite.ref.content_hash:
        raise StaleSpanError(f"{cite.ref.span_id} changed since it was cited")
    if cite.end > len(span.content):
        raise StaleSpanError(f"citation {cite.label} out of range")
    return f"{cite.label} \u2026{span.content[cite.start : cite.end]}\u2026"
