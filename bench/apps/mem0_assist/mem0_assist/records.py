"""Records for the assistant's working context, and the helpers they need."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Literal, Optional, TypedDict

SpanKey = tuple[str, int, str]

_WORD = re.compile(r"\S+")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def token_offsets(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _WORD.finditer(text)]


@dataclass
class ContextSpan:
    span_id: str
    content: str
    source: Literal["memory", "turn", "tool", "summary"] = "turn"
    version: int = 0
    content_hash: str = ""
    memory_id: Optional[str] = None
    produced_by: str = "ingest"
    embedding: Optional[list[float]] = None
    token_offsets: list[tuple[int, int]] = field(default_factory=list)
    tombstoned_at: Optional[float] = None

    def __post_init__(self) -> None:
        self.content_hash = self.content_hash or digest(self.content)
        self.token_offsets = self.token_offsets or token_offsets(self.content)

    @property
    def key(self) -> SpanKey:
        return (self.span_id, self.version, self.content_hash)

    @property
    def live(self) -> bool:
        return self.tombstoned_at is None


@dataclass
class Citation:
    span_id: str
    start: int
    end: int
    label: str = ""


@dataclass(frozen=True)
class PinnedQuote:
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int


class DecisionEntry(TypedDict):
    seq: int
    at: float
    action: str
    target_ids: list[str]
    rationale: str
    evidence: list[str]


@dataclass
class SummaryRecord:
    summary_id: str
    text: str
    source_ids: list[str]
    parent_summary_id: Optional[str] = None
    generation: int = 1
