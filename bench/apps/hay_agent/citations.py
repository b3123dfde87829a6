from __future__ import annotations

from typing import Any

from .buffer import SpanBuffer
from .models import CitationRef, ContextSpan


def cite(span: ContextSpan, start: int, end: int) -> CitationRef:
    return CitationRef(span.span_id, span.version, span.digest, start, end)


def quote(buffer: SpanBuffer, ref: CitationRef) -> str | None:
    span = buffer.spans.get(ref.span_id)
    if span is None or span.version != ref.version or span.digest != ref.digest:
        return None
    return span.text[ref.start:ref.end]


def quote_record(buffer: SpanBuffer, rec: dict[str, Any]) -> str:
    span = buffer.spans[rec["span_id"]]
    return span.text[rec["start"]:rec["end"]]


def citation_payload(ref: CitationRef) -> dict[str, Any]:
    return {"id": ref.span_id, "text": f"[{ref.start}:{ref.end}]"}
