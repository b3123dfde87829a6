"""Citations the writer agent attaches to its answers."""

from dataclasses import dataclass

from pydantic import BaseModel

from crew_memory.spans import SpanStore


class StaleCitation(RuntimeError):
    pass


@dataclass(frozen=True)
class Citation:
    span_id: str
    start: int
    end: int


class PinnedCitation(BaseModel):
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int


class CitationBuilder:
    def __init__(self, store: SpanStore, holder: str = "writer") -> None:
        self.store, self.holder = store, holder

    def cite(self, span_id: str, quote: str) -> Citation | None:
        idx = self.store.spans[span_id].content.find(quote)
        if idx < 0:
            return None
        self.store.hold(span_id, self.holder)
        return Citation(span_id, idx, idx + len(quote))

    def pin(self, span_id: str, quote: str) -> PinnedCitation | None:
        span = self.store.spans[span_id]
        idx = span.content.find(quote)
        if idx < 0:
            return None
        self.store.hold(span_id, self.holder)
        return PinnedCitation(span_id=span.span_id, version=span.version,
                              content_hash=span.content_hash, start=idx, end=idx + len(quote))


def render_citation(store: SpanStore, cit: Citation) -> str:
    text = store.spans[cit.span_id].content
    return f"[{cit.span_id}] \u201c{text[cit.start:cit.end]}\u201d"


def resolve_pinned(store: SpanStore, cit: PinnedCitation) -> str:
    span = store.spans[cit.span_id]
    if span.version != cit.version or span.content_hash != cit.content_hash:
        raise StaleCitation(f"{cit.span_id} moved to v{span.version}")
    return span.content[cit.start:cit.end]
