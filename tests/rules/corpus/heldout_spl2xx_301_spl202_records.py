# rules: SPL202
"""Record types holding something derived from a span, keyed only by the span id."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from collections import namedtuple
from typing import Any, NamedTuple, Optional, TypedDict

import attr
import attrs
import numpy as np
import pydantic
from pydantic import BaseModel, Field


@dataclass
class SpanEmbedding:  # expect: SPL202
    span_id: str
    embedding: list[float]


class CitationRange(NamedTuple):  # expect: SPL202
    span_id: str
    start: int
    end: int


class TokenOffsets(TypedDict):  # expect: SPL202
    node_id: str
    offsets: list[tuple[int, int]]


class RetrievedChunk(BaseModel):  # expect: SPL202
    chunk_id: str
    score: float


@attr.s(auto_attribs=True)
class MessageVector:  # expect: SPL202
    message_id: str
    vector: list[float]


@attrs.define
class BlockTokenCount:  # expect: SPL202
    block_id: str
    token_count: int


@dataclass(frozen=True)
class NodeScore:  # expect: SPL202
    node_id: str
    score: float


class SpanCitation(TypedDict, total=False):  # expect: SPL202
    span_id: str
    start_char_idx: int
    end_char_idx: int


class ChunkEmbedding(BaseModel):  # expect: SPL202
    chunk_id: str = Field(..., description="source chunk")
    embedding: list[float] = Field(default_factory=list)


@dataclass
class NodeEmbedding:  # a bare id_ is the record's own id, not a reference to a span
    id_: str
    embedding: Optional[list[float]] = None


@dataclass(slots=True, kw_only=True)
class MessageTokens:  # expect: SPL202
    message_id: str
    tokens: list[int] = field(default_factory=list)


@dataclass
class Footnote:  # expect: SPL202
    span_id: str
    citation: str
    label: str = ""


class ScoredNode(BaseModel):  # expect: SPL202
    node_id: str
    score: Optional[float] = None


@attrs.define
class SpanOffsets:  # expect: SPL202
    span_id: str = attrs.field()
    offsets: list[tuple[int, int]] = attrs.field(factory=list)


@dataclasses.dataclass
class ChunkHit:  # expect: SPL202
    chunk_id: str
    start: int
    end: int
    score: float


@pydantic.dataclasses.dataclass
class BlockVector:  # expect: SPL202
    block_id: str
    vector: list[float]


def build_records(rows: list[dict[str, Any]]) -> list[Any]:
    @dataclass
    class LocalHit:  # expect: SPL202
        span_id: str
        score: float

    return [LocalHit(r["span_id"], r["score"]) for r in rows]


class SpanVector(NamedTuple):  # expect: SPL202
    span_id: str
    vector: np.ndarray


class EmbeddingRow(BaseModel):  # expect: SPL202
    message_id: str
    embedding: list[float]
    model: str = "text-embedding-3-small"


class CitationSpan(TypedDict):  # expect: SPL202
    chunk_id: str
    start_char_idx: int
    end_char_idx: int
    text: str


@dataclass
class SpanTokenStats:  # expect: SPL202
    span_id: str
    n_tokens: int


@dataclass
class Chunk:  # its own id and content: the span itself (SPL103/SPL104 territory)
    chunk_id: str
    text: str
    embedding: list[float] | None = None


@attr.s
class LegacyCitation:  # expect: SPL202
    node_id = attr.ib()
    citation = attr.ib()


class RerankResult(BaseModel):  # its own id and text: self-contained, not keyed on another span
    id: str
    text: str
    score: float


@attrs.frozen
class EntryEmbedding:  # expect: SPL202
    chunk_id: str
    embedding: tuple[float, ...]


class MessageOffsets(NamedTuple):  # expect: SPL202
    message_id: str
    offsets: tuple[int, ...]


class SpanHighlight(NamedTuple):  # expect: SPL202
    span_id: str
    start_offset: int
    end_offset: int


class PassageScore(BaseModel):  # a bare id_ is the record's own id, not a reference to a span
    id_: str
    score: float


Hit = namedtuple("Hit", "chunk_id score")  # expect: SPL202


class QuotedEvidence(TypedDict):  # expect: SPL202
    message_id: str
    quote: str
    body: str
    start_char_idx: int
    end_char_idx: int
