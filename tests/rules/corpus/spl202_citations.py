# rules: SPL202
"""Records a citation pipeline builds from context spans."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, TypedDict

from pydantic import BaseModel, Field


@dataclass(frozen=True)
class Citation:  # expect: SPL202
    span_id: str
    start: int
    end: int


@dataclass(frozen=True)
class VersionedCitation:
    span_id: str
    span_version: int
    start: int
    end: int


class QuoteRef(BaseModel):  # expect: SPL202
    message_id: str
    start_char_idx: int = Field(ge=0)
    end_char_idx: int = Field(ge=0)
    quote: str | None = None


class HashedQuoteRef(BaseModel):
    message_id: str
    content_hash: str
    start_char_idx: int
    end_char_idx: int


class Highlight(TypedDict):  # expect: SPL202
    chunk_id: str
    offsets: list[tuple[int, int]]


class CitedAnswer(NamedTuple):  # expect: SPL202
    answer: str
    node_id: str
    citations: list[str]


@dataclass
class Span:
    """The span itself: it has content, so its offsets are its own."""

    span_id: str
    content: str
    start: int = 0
    end: int = 0


@dataclass
class Answer:
    text: str
    citations: list[Citation] = field(default_factory=list)


@dataclass
class SpanQuote:  # expect: SPL202
    source_span_id: str
    span_start: int
    span_end: int


@dataclass
class NearestSegment:  # expect: SPL202
    segment_id: str
    distance: float
