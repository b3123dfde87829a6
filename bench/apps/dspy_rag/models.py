"""Record types used across the application.

Passages are ``dspy.Example`` objects with the fields listed in
``PASSAGE_FIELDS``; conversation turns live in ``dspy.History`` messages.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import NamedTuple, TypedDict

import dspy

from .textutil import content_digest, sentence_bounds

PASSAGE_FIELDS = ("pid", "title", "text", "version", "content_hash", "produced_by", "sentence_offsets")


class StaleSpanError(RuntimeError):
    """A derived artifact was used against a passage whose content changed."""


def make_passage(pid: str, text: str, title: str = "", produced_by: str = "ingest") -> dspy.Example:
    return dspy.Example(
        pid=pid,
        title=title,
        text=text,
        version=0,
        content_hash=content_digest(text),
        produced_by=produced_by,
        sentence_offsets=sentence_bounds(text),
    ).with_inputs("text")


class SpanKey(NamedTuple):
    pid: str
    version: int
    content_hash: str

    @classmethod
    def of(cls, passage: dspy.Example) -> "SpanKey":
        return cls(passage.pid, passage.version, passage.content_hash)


@dataclass
class Tombstone:
    pid: str
    version: int
    content_hash: str
    passage: dspy.Example
    reason: str
    tombstoned_at: float = field(default_factory=time.time)
    superseded_by: str | None = None


@dataclass
class WorkingNote:
    note_id: str
    text: str
    version: int = 0
    content_hash: str = ""
    embedding: list[float] | None = None

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = content_digest(self.text)


@dataclass(frozen=True)
class OffsetMap:
    pid: str
    version: int
    content_hash: str
    sentences: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class CitationAnchor:
    pid: str
    version: int
    content_hash: str
    start: int
    end: int
    cited_text: str


@dataclass(frozen=True)
class CitedSpan:
    pid: str
    start: int
    end: int
    quote: str


class Highlight(TypedDict):
    pid: str
    start: int
    end: int
    label: str


@dataclass(frozen=True)
class DecisionEntry:
    edit_id: str
    op: str
    rationale: str
    evidence: tuple[str, ...]
    excerpt: str = ""
    at: float = field(default_factory=time.time)


@dataclass(frozen=True)
class SummaryRecord:
    summary_id: str
    text: str
    source_keys: tuple[SpanKey, ...]
    parent_ids: tuple[str, ...] = ()
    generation: int = 0
