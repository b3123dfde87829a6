"""Record types for the working context."""
from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def content_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sentence_bounds(text: str) -> List[Tuple[int, int]]:
    bounds: List[Tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        bounds.append((start, match.start()))
        start = match.end()
    if start < len(text):
        bounds.append((start, len(text)))
    return bounds


@dataclass
class ContextSpan:
    span_id: str
    content: str
    kind: str = "message"
    role: Optional[str] = None
    source_id: Optional[str] = None
    version: int = 0
    content_hash: str = ""
    produced_by: str = "ingest"
    char_offsets: List[Tuple[int, int]] = field(default_factory=list)
    embedding: Optional[List[float]] = None
    tombstoned: bool = False
    tombstoned_at: Optional[float] = None
    superseded_by: Optional[str] = None
    created_at: float = field(default_factory=time.time)

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = content_digest(self.content)
        if not self.char_offsets:
            self.char_offsets = sentence_bounds(self.content)

    @property
    def key(self) -> Tuple[str, int, str]:
        return (self.span_id, self.version, self.content_hash)


@dataclass(frozen=True)
class OffsetMap:
    span_id: str
    version: int
    content_hash: str
    offsets: Tuple[Tuple[int, int], ...]


@dataclass
class Citation:
    citation_id: str
    span_id: str
    start: int
    end: int
    quote: str
    label: str = ""


@dataclass(frozen=True)
class DecisionEntry:
    entry_id: str
    op: str
    target_ids: Tuple[str, ...]
    rationale: str
    evidence: Tuple[str, ...] = ()
    at: float = field(default_factory=time.time)


@dataclass
class SummaryRecord:
    summary_id: str
    text: str
    source_ids: Tuple[str, ...]
    root_ids: Tuple[str, ...]
    parent_summary_id: Optional[str] = None
    generation: int = 1
    created_at: float = field(default_factory=time.time)
