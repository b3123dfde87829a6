from __future__ import annotations

import hashlib
import time
import uuid
from dataclasses import dataclass, field
from typing import Any


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_span_id() -> str:
    return uuid.uuid4().hex


@dataclass
class ContextSpan:
    span_id: str
    text: str
    version: int = 1
    digest: str = ""
    tombstoned: bool = False
    created_at: float = field(default_factory=time.time)

    def __post_init__(self) -> None:
        if not self.digest:
            self.digest = content_hash(self.text)


@dataclass
class Note:
    note_id: str
    body: str


@dataclass
class OffsetMap:
    span_id: str
    sentence_starts: list[int]


@dataclass(frozen=True)
class CitationRef:
    span_id: str
    version: int
    digest: str
    start: int
    end: int


@dataclass
class SummaryRecord:
    summary_id: str
    text: str
    source_ids: list[str]
    root_ids: list[str]
    parent_summary_id: str | None = None


@dataclass(frozen=True)
class Decision:
    at: float
    action: str
    span_ids: tuple[str, ...]
    reason: str
    evidence: tuple[str, ...] = ()


@dataclass
class MenuItem:
    id: str
    text: str


def meta_of(span_id: str, text: str, version: int = 1) -> dict[str, Any]:
    return {"span_id": span_id, "version": version, "content_hash": content_hash(text)}
