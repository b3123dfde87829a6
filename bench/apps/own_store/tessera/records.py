"""Record types shared by the buffer, the operators and the stores."""

from __future__ import annotations

import hashlib
import time
import uuid
from typing import NamedTuple, Optional, TypedDict

import attrs


def content_digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def new_span_id(prefix: str = "sp") -> str:
    return f"{prefix}_{uuid.uuid4().hex[:12]}"


class SpanKey(NamedTuple):
    span_id: str
    version: int
    content_hash: str


@attrs.define(slots=True)
class Span:
    span_id: str
    content: str
    role: str = "user"
    version: int = 0
    content_hash: str = attrs.field(
        default=attrs.Factory(lambda self: content_digest(self.content), takes_self=True)
    )
    produced_by: str = "ingest"
    parents: tuple[str, ...] = ()
    created_at: float = attrs.field(factory=time.time)
    tombstoned_at: Optional[float] = None

    @property
    def is_tombstone(self) -> bool:
        return self.tombstoned_at is not None

    @property
    def is_summary(self) -> bool:
        return self.produced_by.startswith("rewrite:summarize")

    def key(self) -> SpanKey:
        return SpanKey(self.span_id, self.version, self.content_hash)


@attrs.define
class Note:
    """A scratchpad note the agent keeps for itself; rendered into the prompt."""

    note_id: str
    body: str
    pinned: bool = False
    updated_at: float = attrs.field(factory=time.time)


class ToolTurn(TypedDict):
    turn_id: str
    tool: str
    arguments: dict
    output: str
    status: str


@attrs.define
class Chunk:
    chunk_id: str
    span_id: str
    text: str
    version: int = 0
    text_hash: str = attrs.field(
        default=attrs.Factory(lambda self: content_digest(self.text), takes_self=True)
    )
    embedding: Optional[list[float]] = None
    token_offsets: list[tuple[int, int]] = attrs.field(factory=list)


class Passage(NamedTuple):
    passage_id: str
    text: str
    version: int
    text_hash: str
    sentence_offsets: tuple[tuple[int, int], ...]
    source_url: Optional[str] = None
