"""Citations from the planner's answers back into context spans."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from semantic_kernel.connectors.in_memory import InMemoryCollection

from sk_agents.records import SpanChunk
from sk_agents.spans import ContextSpan, SpanStore


class StaleCitationError(LookupError):
    pass


@dataclass(frozen=True)
class Citation:
    span_id: str
    start: int
    end: int
    label: str = ""


def cite(span: ContextSpan, needle: str, label: str = "") -> Citation | None:
    at = span.text.find(needle)
    if at < 0:
        return None
    return Citation(span_id=span.span_id, start=at, end=at + len(needle), label=label)


def quote(citation: Citation, store: SpanStore) -> str:
    span = store.get(citation.span_id)
    return span.text[citation.start : citation.end]


def footnotes(citations: Sequence[Citation], store: SpanStore) -> str:
    return "\n".join(
        f"[{n}] {c.label or c.span_id}: \u201c{quote(c, store)}\u201d" for n, c in enumerate(citations, 1)
    )


@dataclass(frozen=True)
class PinnedCitation:
    span_id: str
    span_version: int
    span_hash: str
    start: int
    end: int

    @classmethod
    def of(cls, span: ContextSpan, start: int, end: int) -> PinnedCitation:
        return cls(span.span_id, span.version, span.content_hash, start, end)


def quote_pinned(citation: PinnedCitation, store: SpanStore) -> str:
    span = store.find(citation.span_id)
    if span is None:
        raise StaleCitationError(f"span {citation.span_id} is gone")
    if (span.version, span.content_hash) != (citation.span_version, citation.span_hash):
        raise StaleCitationError(
            f"span {citation.span_id} changed: cited v{citation.span_version}, now v{span.version}"
        )
    if citation.end > len(span.text):
        raise StaleCitationError(f"citation {citation.start}:{citation.end} past end of {citation.span_id}")
    return span.text[citation.start : citation.end]


async def snippets_for(
    chunks: InMemoryCollection[str, SpanChunk],
    store: SpanStore,
    query_vector: list[float],
    top: int = 4,
) -> list[tuple[str, str]]:
    found = await chunks.search(vector=query_vector, top=top)
    out: list[tuple[str, str]] = []
    async for hit in found.results:
        rec = hit.record
        owner = store.find(rec.span_id)
        if owner is None:
            continue
        out.append((rec.span_id, owner.text[rec.start : rec.end]))
    return out
