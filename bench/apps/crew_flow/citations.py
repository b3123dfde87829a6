"""Citations and sentence offsets into context spans."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, Field

from crew_flow.spans import ContextBuffer, ContextSpan, SpanRef, StaleSpanError

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


class Citation(BaseModel):
    span_id: str
    start: int
    end: int
    label: str = ""
    score: float = 0.0


class SentenceOffsets(BaseModel):
    ref: SpanRef
    bounds: list[tuple[int, int]] = Field(default_factory=list)

    @property
    def span_id(self) -> str:
        return self.ref.span_id


def cite(span: ContextSpan, needle: str, label: str = "") -> Citation | None:
    at = span.content.find(needle)
    if at < 0:
        return None
    return Citation(span_id=span.id, start=at, end=at + len(needle), label=label or span.kind)


def render_citations(buffer: ContextBuffer, citations: Iterable[Citation]) -> str:
    out: list[str] = []
    for n, c in enumerate(citations, 1):
        text = buffer.get(c.span_id).content[c.start : c.end]
        out.append(f"[{n}] ({c.label}) \u201c{text.strip()}\u201d")
    return "\n".join(out)


def index_sentences(span: ContextSpan) -> SentenceOffsets:
    bounds = [(m.start(), m.end()) for m in _SENTENCE.finditer(span.content) if m.group().strip()]
    return SentenceOffsets(ref=span.ref, bounds=bounds)


def quote(buffer: ContextBuffer, offsets: SentenceOffsets, i: int) -> str:
    span = buffer.get(offsets.span_id)
    if not offsets.ref.matches(span):
        raise StaleSpanError(
            f"offsets for {offsets.span_id} built at v{offsets.ref.version}, span is v{span.version}"
        )
    start, end = offsets.bounds[i]
    if end > len(span.content):
        raise StaleSpanError(f"sentence {i} ends past span {span.id}")
    return span.content[start:end].strip()
