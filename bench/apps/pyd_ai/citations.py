"""Evidence the agent cites in its answers, and rendering of quoted evidence."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field

from .spans import ContextStore, HolderRegistry


class Evidence(BaseModel):
    span_id: str = Field(description="id of the context span the quote comes from")
    start: int = Field(ge=0, description="character offset where the quote starts")
    end: int = Field(ge=0, description="character offset where the quote ends")
    note: str = ""


class CaseAnswer(BaseModel):
    answer: str
    confidence: float = Field(ge=0, le=1)
    evidence: list[Evidence] = Field(default_factory=list)


def render_evidence(store: ContextStore, answer: CaseAnswer) -> list[str]:
    lines = []
    for i, ev in enumerate(answer.evidence, 1):
        span = store.find(ev.span_id)
        if span is None:
            continue
        quote = span.content[ev.start : ev.end].strip()
        lines.append(f"[{i}] {quote!r} ({ev.span_id})")
    return lines


class StaleQuoteError(LookupError):
    pass


@dataclass(frozen=True)
class PinnedQuote:
    span_id: str
    span_version: int
    content_hash: str
    start: int
    end: int


def pin(store: ContextStore, ev: Evidence, holders: HolderRegistry) -> PinnedQuote:
    span = store.get(ev.span_id)
    holders.hold(span.span_id, f"quote:{ev.start}-{ev.end}")
    return PinnedQuote(span.span_id, span.version, span.content_hash, ev.start, ev.end)


def quote_pinned(store: ContextStore, q: PinnedQuote) -> str:
    span = store.find(q.span_id)
    if span is None:
        raise StaleQuoteError(f"{q.span_id} is gone")
    if (span.version, span.content_hash) != (q.span_version, q.content_hash):
        raise StaleQuoteError(
            f"{q.span_id} changed since it was quoted (v{q.span_version} -> v{span.version})"
        )
    if q.end > len(span.content):
        raise StaleQuoteError(f"{q.span_id}: offsets out of range")
    return span.content[q.start : q.end]
