"""Pydantic models for the desk's context store, plus content digests and token estimates."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timezone
from typing import Literal

from pydantic import BaseModel, Field

_WORD = re.compile(r"\w+|[^\w\s]")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def short(h: str) -> str:
    return h[:10]


def count_tokens(text: str) -> int:
    return len(_WORD.findall(text))


def sentence_offsets(text: str) -> list[tuple[int, int]]:
    offsets: list[tuple[int, int]] = []
    start = 0
    for match in re.finditer(r"[.!?](\s+|$)", text):
        end = match.end()
        offsets.append((start, end))
        start = end
    if start < len(text):
        offsets.append((start, len(text)))
    return offsets


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class ContextSpan(BaseModel):
    """One addressable piece of the working context (a turn, a tool transcript, a KB page)."""

    span_id: str
    text: str
    kind: Literal["turn", "tool", "kb", "summary", "note"] = "turn"
    version: int = 0
    content_hash: str = ""
    produced_by: str = "ingest"
    token_count: int = 0
    char_offsets: list[tuple[int, int]] = Field(default_factory=list)
    embedding: list[float] | None = None
    holders: set[str] = Field(default_factory=set)
    tombstoned_at: datetime | None = None
    created_at: datetime = Field(default_factory=utcnow)

    def model_post_init(self, __context: object) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.text)
        if not self.token_count:
            self.token_count = count_tokens(self.text)
        if not self.char_offsets:
            self.char_offsets = sentence_offsets(self.text)

    @property
    def tombstoned(self) -> bool:
        return self.tombstoned_at is not None


class Citation(BaseModel):
    span_id: str
    start: int
    end: int
    span_version: int | None = None
    span_hash: str | None = None
    label: str = ""


class DecisionEntry(BaseModel):
    seq: int
    action: Literal["prune", "rewrite", "summarize", "gc", "correction"]
    span_ids: list[str]
    rationale: str
    evidence_hashes: dict[str, str] = Field(default_factory=dict)
    refers_to: int | None = None
    at: datetime = Field(default_factory=utcnow)


class SummaryRecord(BaseModel):
    summary_id: str
    text: str
    source_span_ids: list[str] = Field(default_factory=list)
    source_hashes: dict[str, str] = Field(default_factory=dict)
    parent_summary_id: str | None = None
    generation: int = 1
    created_at: datetime = Field(default_factory=utcnow)


class Note(BaseModel):
    """An agent-authored scratch note about a customer ticket."""

    note_id: str
    ticket_id: str
    body: str
    version: int = 0
    body_hash: str = ""
    embedding: list[float] | None = None
    char_offsets: list[tuple[int, int]] = Field(default_factory=list)

    def model_post_init(self, __context: object) -> None:
        if not self.body_hash:
            self.body_hash = digest(self.body)
        if not self.char_offsets:
            self.char_offsets = sentence_offsets(self.body)
