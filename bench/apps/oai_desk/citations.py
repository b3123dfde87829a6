"""Citations from agent answers back into conversation spans."""

from __future__ import annotations

import uuid

from .buffer import ContextBuffer
from .models import Citation, DeskSpan, StaleArtifactError


class CitationStore:
    def __init__(self) -> None:
        self._by_id: dict[str, Citation] = {}

    def cite(self, span: DeskSpan, start: int, end: int) -> Citation:
        citation = Citation(
            citation_id=f"cit_{uuid.uuid4().hex[:10]}",
            span_id=span.span_id,
            version=span.version,
            content_hash=span.content_hash,
            start=max(0, start),
            end=min(len(span.content), end),
        )
        self._by_id[citation.citation_id] = citation
        return citation

    def get(self, citation_id: str) -> Citation | None:
        return self._by_id.get(citation_id)

    def all(self) -> list[Citation]:
        return list(self._by_id.values())

    def resolve(self, buffer: ContextBuffer, citation: Citation) -> str:
        span = buffer.get(citation.span_id)
        if span is None:
            raise StaleArtifactError(f"cited span {citation.span_id} no longer exists")
        if span.version != citation.version or span.content_hash != citation.content_hash:
            raise StaleArtifactError(
                f"citation {citation.citation_id} targets v{citation.version}, span is v{span.version}"
            )
        if citation.end > len(span.content):
            raise StaleArtifactError(f"citation {citation.citation_id} is out of range")
        return span.content[citation.start : citation.end]


def footnotes(store: CitationStore, buffer: ContextBuffer) -> list[str]:
    notes = []
    for n, citation in enumerate(store.all(), start=1):
        try:
            quote = store.resolve(buffer, citation)
        except StaleArtifactError:
            quote = "(source changed since citation)"
        notes.append(f"[{n}] {quote}")
    return notes
