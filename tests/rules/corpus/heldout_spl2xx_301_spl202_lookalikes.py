# rules: SPL202
"""Records that carry a version or a hash, records without span ids, and unrelated look-alikes."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Optional, Protocol, TypedDict

import attr
import attrs
from pydantic import BaseModel
from sqlalchemy import Column, Integer, String
from sqlalchemy.orm import declarative_base

Base = declarative_base()


@dataclass
class VersionedEmbedding:
    span_id: str
    version: int
    embedding: list[float]


@dataclass
class HashedOffsets:
    span_id: str
    content_hash: str
    offsets: list[tuple[int, int]]


class DigestCitation(NamedTuple):
    node_id: str
    digest: str
    start: int
    end: int


class RevScore(BaseModel):
    chunk_id: str
    rev: int
    score: float


class EtagVector(TypedDict):
    message_id: str
    etag: str
    vector: list[float]


@attrs.define
class GenerationTokens:
    block_id: str
    generation: int
    tokens: list[int]


@dataclass
class SpanRef:
    span_id: str
    role: str


@dataclass
class Embedding:
    vector: list[float]
    model: str


class Plain:
    def __init__(self, span_id: str, embedding: list[float]) -> None:
        self.span_id = span_id
        self.embedding = embedding


@dataclass
class SpanContext:
    trace_id: int
    span_id: int
    trace_flags: int = 0


class ReMatch(NamedTuple):
    start: int
    end: int
    group: str


class User(Base):
    __tablename__ = "users"
    id = Column(Integer, primary_key=True)
    name = Column(String)
    score = Column(Integer)


class VersionedModel(BaseModel):
    node_id: str
    version: int = 0
    embedding: Optional[list[float]] = None


@attr.s(auto_attribs=True)
class HashedVector:
    message_id: str
    hash: str
    vector: list[float]


class ChecksumHit(NamedTuple):
    chunk_id: str
    checksum: str
    score: float


class HashedCitation(TypedDict):
    span_id: str
    hash: str
    start_char_idx: int
    end_char_idx: int


@dataclass
class RevisionedTokens:
    span_id: str
    revision: int
    n_tokens: int


class Color(enum.Enum):
    SPAN_ID = "span_id"
    SCORE = "score"


class HasEmbedding(Protocol):
    span_id: str
    embedding: list[float]


@dataclass
class Span:
    span_id: str
    content: str
    version: int = 0
    content_hash: str = ""
    embedding: list[float] = field(default_factory=list)


class HttpResponse(NamedTuple):
    id: str
    body: bytes
    etag: str


@dataclass
class EmbeddingConfig:
    model: str
    dimensions: int = 1536


class ChatMessage(TypedDict):
    id: str
    role: str
    content: str


class SpanKey(NamedTuple):
    span_id: str
    version: int
    content_hash: str


@attrs.frozen
class CitationWithHash:
    node_id: str
    content_hash: str
    citation: str


class RetrievedNode(BaseModel):
    node_id: str
    score: float
    digest: str


@dataclass
class VectorRecord:
    id: str
    vector: list[float]
    metadata: dict[str, Any] = field(default_factory=dict)


class Token(NamedTuple):
    id: int
    text: str
    start: int
    end: int


class ChunkRecord(BaseModel):
    chunk_id: str
    embedding: Optional[list[float]] = None

    @property
    def content_hash(self) -> str:
        return str(self.embedding)


class IndexedNode(BaseModel):
    node_id: str
    embedding: Optional[list[float]] = None

    def set_content(self, value: str) -> None:
        raise NotImplementedError
