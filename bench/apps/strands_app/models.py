"""Domain records used next to the agent's own message history."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import Any


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class NoteSpan:
    """A case note pinned into the working context (ticket excerpts, runbook steps)."""

    span_id: str
    text: str
    version: int = 0
    content_hash: str = ""
    produced_by: str = "ingest"
    embedding: list[float] | None = None
    sentence_offsets: list[tuple[int, int]] = field(default_factory=list)
    tombstoned_at: float | None = None
    superseded_by: str | None = None

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.text)

    @property
    def live(self) -> bool:
        return self.tombstoned_at is None

    def tombstone(self, successor: str | None = None) -> None:
        self.tombstoned_at = time.time()
        self.superseded_by = successor


@dataclass
class KnowledgeChunk:
    """A chunk of a knowledge-base article retrieved for the current case."""

    chunk_id: str
    text: str
    source_uri: str
    page: int | None = None
    score: float = 0.0


@dataclass
class OffsetMap:
    """Sentence boundaries for a context span, used for highlighting and quoting."""

    span_id: str
    offsets: list[tuple[int, int]]
    tokenizer: str = "regex-sentences"


@dataclass(frozen=True)
class CitationRecord:
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int
    quote: str


@dataclass(frozen=True)
class DecisionEntry:
    edit_id: str
    op: str
    target_ids: tuple[str, ...]
    rationale: str
    evidence: str
    at: float = field(default_factory=time.time)

    def to_json(self) -> dict[str, Any]:
        return {
            "edit_id": self.edit_id,
            "op": self.op,
            "target_ids": list(self.target_ids),
            "rationale": self.rationale,
            "evidence": self.evidence,
            "at": self.at,
        }
