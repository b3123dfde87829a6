"""Record types for the context buffer and the artifacts derived from it."""
from __future__ import annotations

import hashlib
import re
import time
import uuid
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from langroid.language_models.base import LLMMessage, Role
from langroid.mytypes import Document

_WORD = re.compile(r"\S+")
_SENTENCE = re.compile(r"[^.!?]+[.!?]*")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_id(prefix: str = "sp") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def word_bounds(text: str) -> List[Tuple[int, int]]:
    return [(m.start(), m.end()) for m in _WORD.finditer(text)]


def sentence_bounds(text: str) -> List[Tuple[int, int]]:
    return [(m.start(), m.end()) for m in _SENTENCE.finditer(text) if m.group().strip()]


class StaleSpanError(RuntimeError):
    pass


@dataclass
class ContextSpan:
    """One entry of the working context, mirrored from ``message_history``."""

    span_id: str
    content: str
    role: str = Role.USER.value
    version: int = 0
    content_hash: str = ""
    produced_by: str = "ingest"
    chat_document_id: str = ""
    parent_ids: Tuple[str, ...] = ()
    created_at: float = field(default_factory=time.time)
    tombstoned_at: Optional[float] = None

    @classmethod
    def create(
        cls,
        content: str,
        role: str = Role.USER.value,
        produced_by: str = "ingest",
        chat_document_id: str = "",
        parent_ids: Tuple[str, ...] = (),
    ) -> "ContextSpan":
        return cls(
            span_id=new_id(),
            content=content,
            role=role,
            content_hash=digest(content),
            produced_by=produced_by,
            chat_document_id=chat_document_id,
            parent_ids=parent_ids,
        )

    @classmethod
    def from_llm_message(cls, msg: LLMMessage) -> "ContextSpan":
        return cls.create(
            msg.content or "",
            role=Role(msg.role).value,
            chat_document_id=msg.chat_document_id,
        )

    def to_llm_message(self) -> LLMMessage:
        return LLMMessage(
            role=Role(self.role),
            content=self.content,
            chat_document_id=self.chat_document_id,
        )

    @property
    def ref(self) -> "SpanRef":
        return SpanRef(self.span_id, self.version, self.content_hash)

    @property
    def is_tombstoned(self) -> bool:
        return self.tombstoned_at is not None


@dataclass(frozen=True)
class SpanRef:
    span_id: str
    version: int
    content_hash: str

    def matches(self, span: ContextSpan) -> bool:
        return (
            span.span_id == self.span_id
            and span.version == self.version
            and span.content_hash == self.content_hash
        )


@dataclass
class Note:
    """Scratchpad note the assistant keeps across turns via tools."""

    id: str
    text: str
    topic: str = ""
    created_at: float = field(default_factory=time.time)


@dataclass
class IndexedChunk:
    """A document chunk held in the local semantic index."""

    chunk_id: str
    text: str
    source: str = ""
    version: int = 0
    content_hash: str = ""
    embedding: Optional[List[float]] = None
    sentences: List[Tuple[int, int]] = field(default_factory=list)

    @classmethod
    def from_document(cls, doc: Document) -> "IndexedChunk":
        return cls(
            chunk_id=doc.id(),
            text=doc.content,
            source=doc.metadata.source,
            content_hash=digest(doc.content),
            sentences=sentence_bounds(doc.content),
        )


@dataclass(frozen=True)
class Citation:
    span_id: str
    start: int
    end: int
    label: str = ""


@dataclass(frozen=True)
class PinnedCitation:
    ref: SpanRef
    start: int
    end: int
    label: str = ""


@dataclass(frozen=True)
class OffsetMap:
    ref: SpanRef
    bounds: Tuple[Tuple[int, int], ...]


@dataclass(frozen=True)
class Decision:
    seq: int
    op: str
    target_ids: Tuple[str, ...]
    rationale: str
    evidence: Tuple[Tuple[str, str, str], ...] = ()  # (id, content_hash, excerpt)
    at: float = field(default_factory=time.time)
