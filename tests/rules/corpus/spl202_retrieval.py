# rules: SPL202
"""Retrieval results and embedding records."""
from dataclasses import dataclass
from typing import Optional

import attrs
from pydantic import BaseModel


class ScoredNode(BaseModel):  # expect: SPL202
    node_id: str
    score: float


class ScoredNodeWithVersion(BaseModel):
    node_id: str
    node_version: int
    score: float


@attrs.define
class ChunkVector:  # expect: SPL202
    chunk_id: str
    vector: list[float]
    model: str = "text-embedding-3-small"


@attrs.frozen
class ChunkVectorFingerprinted:
    chunk_id: str
    vector: list[float]
    text_sha256: str


@dataclass
class Chunk:
    """A chunk with its own text and embedding is the span, not an artifact of one."""

    id: str
    text: str
    embedding: Optional[list[float]] = None


class BaseRecord(BaseModel):
    block_id: str


class BlockEmbedding(BaseRecord):  # expect: SPL202
    embedding: list[float]


class SearchHit(BaseModel):
    """No span id: a hit on a document URL."""

    url: str
    score: float
