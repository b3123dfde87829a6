from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from letta_client import Letta
from letta_client.types.agents import PassageSearchResponse

from .spans import MemorySpan, digest


class StaleCitation(RuntimeError):
    pass


@dataclass(frozen=True)
class Citation:
    passage_id: str
    start: int
    end: int
    label: str = ""


def cite_search_hits(hits: PassageSearchResponse, needle: str) -> list[Citation]:
    out = []
    for r in hits.results:
        i = r.content.lower().find(needle.lower())
        if i >= 0:
            out.append(Citation(passage_id=r.id, start=i, end=i + len(needle), label=r.timestamp))
    return out


def render_citations(client: Letta, agent_id: str, cites: list[Citation]) -> list[str]:
    texts = {p.id: p.text for p in client.agents.passages.list(agent_id, limit=500)}
    rendered = []
    for n, c in enumerate(cites, 1):
        body = texts.get(c.passage_id)
        if body is None:
            continue
        rendered.append(f"[{n}] \u201c{body[c.start:c.end]}\u201d ({c.label})")
    return rendered


@dataclass(frozen=True)
class SpanCitation:
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int

    @classmethod
    def of(cls, span: MemorySpan, start: int, end: int) -> "SpanCitation":
        return cls(span.span_id, span.version, span.content_hash, start, end)


def resolve(c: SpanCitation, spans: dict[str, MemorySpan]) -> str:
    span = spans.get(c.span_id)
    if span is None:
        raise StaleCitation(f"{c.span_id} is gone")
    if span.version != c.version or digest(span.content) != c.content_hash:
        raise StaleCitation(f"{c.span_id} changed since v{c.version}")
    if c.end > len(span.content):
        raise StaleCitation(f"{c.span_id}: [{c.start}:{c.end}] out of range")
    return span.content[c.start:c.end]


class HolderRegistry:
    """Tracks which downstream artifacts still point at a span or passage id."""

    def __init__(self) -> None:
        self._holders: dict[str, set[str]] = defaultdict(set)

    def hold(self, target_id: str, holder: str) -> None:
        self._holders[target_id].add(holder)

    def release(self, target_id: str, holder: str) -> None:
        self._holders[target_id].discard(holder)

    def is_held(self, target_id: str) -> bool:
        return bool(self._holders.get(target_id))
