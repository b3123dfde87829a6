from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Optional

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _SENTENCE.finditer(text) if m.group().strip()]


@dataclass
class MemorySpan:
    """Local view of a piece of agent memory (a core block or an archival passage)."""

    span_id: str
    content: str
    label: Optional[str] = None
    version: int = 1
    content_hash: str = ""
    produced_by: str = "ingest"
    source_ids: list[str] = field(default_factory=list)
    embedding: Optional[list[float]] = None
    tombstoned_at: Optional[datetime] = None

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.content)

    @classmethod
    def from_block(cls, block) -> "MemorySpan":
        meta = block.metadata or {}
        return cls(
            span_id=block.id,
            content=block.value,
            label=block.label,
            version=int(meta.get("ops_version", 1)),
            produced_by=str(meta.get("produced_by", "ingest")),
        )

    def tombstone(self) -> None:
        self.tombstoned_at = datetime.now(timezone.utc)


@dataclass
class IndexedChunk:
    """A slice of a block value prepared for retrieval: sentence map and token count."""

    chunk_id: str
    block_id: str
    text: str
    version: int = 1
    content_hash: str = ""
    sentence_offsets: list[tuple[int, int]] = field(default_factory=list)
    token_count: int = 0

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.text)
        if not self.sentence_offsets:
            self.sentence_offsets = sentence_bounds(self.text)
