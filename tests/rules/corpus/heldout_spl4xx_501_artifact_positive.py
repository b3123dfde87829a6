# rules: SPL501
"""Held-out: stored offsets applied to span content without checking the span still matches."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


@dataclass
class Span:
    id: str
    content: str
    version: int = 0
    content_hash: str = ""


class Citation(NamedTuple):
    span_id: str
    start: int
    end: int
    version: int
    content_hash: str


@dataclass
class OffsetArtifact:
    span_id: str
    offsets: tuple[int, int]
    version: int
    digest: str


@dataclass
class Highlight:
    start: int
    end: int


def quote(span: Span, a: Citation) -> str:
    return span.content[a.start:a.end]  # expect: SPL501


def quote_offsets(s: Span, art: OffsetArtifact) -> str:
    return s.text[art.offsets[0]:art.offsets[1]]  # expect: SPL501


def quote_unpacked(span: Span, art: OffsetArtifact) -> str:
    start, end = art.offsets
    return span.content[start:end]  # expect: SPL501


class CitationRenderer:
    def __init__(self, spans: dict[str, Span], citations: list[Citation]) -> None:
        self.spans = spans
        self.citations = citations

    def render(self) -> list[str]:
        out = []
        for c in self.citations:
            span = self.spans[c.span_id]
            out.append(f'"{span.content[c.start:c.end]}" [{c.span_id}]')  # expect: SPL501
        return out

    def render_all(self) -> list[str]:
        return [self.spans[c.span_id].content[c.start:c.end] for c in self.citations]  # expect: SPL501

    def first_char(self, c: Citation) -> str:
        return self.spans[c.span_id].content[c.start]  # expect: SPL501

    def render_checked_id_only(self, c: Citation) -> str:
        span = self.spans[c.span_id]
        if span.id != c.span_id:
            raise KeyError(c.span_id)
        return span.content[c.start:c.end]  # expect: SPL501


def validate_bounds(c: Citation) -> bool:
    return 0 <= c.start <= c.end


def quote_bounds_checked(span: Span, c: Citation) -> str:
    if not validate_bounds(c):
        raise ValueError("bad citation")
    return span.content[c.start:c.end]  # expect: SPL501


def token_window(chunk, art) -> list[int]:
    return chunk.tokens[art.token_start:art.token_end]  # expect: SPL501


def highlight_message(message, highlight: Highlight) -> str:
    return message.body[highlight.start:highlight.end]  # expect: SPL501


def from_dict_artifact(span: Span, artifact: dict) -> str:
    return span.content[artifact["start"]:artifact["end"]]  # expect: SPL501


async def load_quote(store, span_id: str) -> str:
    span = await store.get_span(span_id)
    citation = await store.get_citation(span_id)
    return span.content[citation.start:citation.end]  # expect: SPL501


def node_excerpt(n, offsets) -> str:
    return n.node.text[offsets.start_char_idx:offsets.end_char_idx]  # expect: SPL501


def walrus_quote(spans: dict[str, Span], cites: list[Citation]) -> list[str]:
    out = []
    for c in cites:
        if (span := spans.get(c.span_id)) is not None:
            out.append(span.content[c.start:c.end])  # expect: SPL501
    return out


def length_based(entry, art) -> str:
    end = art.start + art.length
    return entry.value[art.start:end]  # expect: SPL501


def segment_slice(segment: Span, artifact: OffsetArtifact) -> str:
    lo, hi = artifact.offsets
    try:
        return segment.content[lo:hi]  # expect: SPL501
    except IndexError:
        return ""


def passage_snippet(passage: Span, cite: Citation, pad: int = 20) -> str:
    return passage.content[max(0, cite.start - pad):cite.end + pad]  # expect: SPL501


def block_label(block, art: Citation) -> str:
    text = block.value
    return text[art.start:art.end]  # expect: SPL501


def turn_quote(turn: Span, art: OffsetArtifact) -> str:
    begin = art.offsets[0]
    finish = art.offsets[1]
    return turn.content[begin:finish]  # expect: SPL501


def elif_quote(span: Span, cite: Citation, mode: str) -> str:
    if mode == "short":
        return span.content[cite.start:cite.start + 10]  # expect: SPL501
    elif mode == "full":
        return span.content[cite.start:cite.end]  # expect: SPL501
    return ""


def versions_read_not_compared(span: Span, cite: Citation) -> dict:
    return {"version": cite.version, "text": span.content[cite.start:cite.end]}  # expect: SPL501


def cached_offsets(span: Span, cache: dict[str, OffsetArtifact]) -> str:
    art = cache[span.id]
    return span.content[art.offsets[0]:art.offsets[1]]  # expect: SPL501


@dataclass
class StoredSpanRef:
    span_id: str
    start: int
    end: int
    version: int

    def resolve(self, span: Span) -> str:
        return span.content[self.start:self.end]  # expect: SPL501


def match_quote(span: Span, ref) -> str:
    match ref:
        case Citation():
            return span.content[ref.start:ref.end]  # expect: SPL501
        case _:
            return ""
