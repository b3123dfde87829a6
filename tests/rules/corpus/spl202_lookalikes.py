# rules: SPL202
"""Records with ids and scores or vectors that are not span artifacts."""
from dataclasses import dataclass
from typing import ClassVar, TypedDict

from pydantic import BaseModel


@dataclass
class Player:
    user_id: str
    score: int


class RunMetrics(BaseModel):
    run_id: str
    start: float
    end: float


class GeoPoint(TypedDict):
    place_id: str
    vector: tuple[float, float]


@dataclass
class Slot:
    node_id: str
    parent_id: str
    children: list[str]


class MessageEvent(BaseModel):
    message_id: str
    sender: str
    body: str
    score: float


class Plain:
    """Not a record type: a plain class with attributes."""

    def __init__(self, span_id, embedding):
        self.span_id = span_id
        self.embedding = embedding


@dataclass
class Config:
    span_id: ClassVar[str] = "root"
    score_threshold: float = 0.5


@dataclass
class RetrievalSettings:
    chunk_id: str
    score_threshold: float
    vector_dim: int
