"""The note span: the unit of context the assistant reads, cites and compacts."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import NamedTuple


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class SpanKey(NamedTuple):
    span_id: str
    version: int
    sha: str


@dataclass
class NoteSpan:
    span_id: str
    text: str
    version: int = 1
    sha: str = ""
    source: str = "ingest"
    created_at: float = field(default_factory=time.time)
    tombstoned_at: float | None = None
    token_offsets: list[tuple[int, int]] = field(default_factory=list)
    derived_from: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.sha:
            self.sha = sha(self.text)
        if not self.token_offsets:
            self.token_offsets = tokenize_offsets(self.text)

    @property
    def key(self) -> SpanKey:
        return SpanKey(self.span_id, self.version, self.sha)

    @property
    def is_tombstoned(self) -> bool:
        return self.tombstoned_at is not None


def tokenize_offsets(text: str) -> list[tuple[int, int]]:
    offsets: list[tuple[int, int]] = []
    pos = 0
    for word in text.split():
        start = text.index(word, pos)
        offsets.append((start, start + len(word)))
        pos = start + len(word)
    return offsets
