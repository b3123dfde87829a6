"""Span types shared by the buffer, the operators and the indexes.

Three kinds of span live in this app:

* chat messages in the graph state (``langchain_core.messages``), whose span
  version and digest ride along in ``additional_kwargs``;
* store-backed records (``SpanRecord``) kept in the LangGraph ``BaseStore``;
* retrieved ``Document`` chunks fed to the model as context.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage
from langgraph.store.base import Item

SPAN_VERSION_KEY = "span_version"
SPAN_HASH_KEY = "span_hash"

_SENTENCE_RE = re.compile(r"[^.!?]+[.!?]*\s*")


def content_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sentence_offsets(text: str) -> list[list[int]]:
    return [[m.start(), m.end()] for m in _SENTENCE_RE.finditer(text) if m.group().strip()]


def message_text(message: BaseMessage) -> str:
    if isinstance(message.content, str):
        return message.content
    return "".join(
        part.get("text", "") if isinstance(part, dict) else str(part) for part in message.content
    )


def stamp_message(message: BaseMessage) -> BaseMessage:
    """Attach span version/digest to a freshly ingested message."""
    kwargs = dict(message.additional_kwargs)
    kwargs.setdefault(SPAN_VERSION_KEY, 0)
    kwargs[SPAN_HASH_KEY] = content_digest(message_text(message))
    return message.model_copy(update={"additional_kwargs": kwargs})


def message_version(message: BaseMessage) -> tuple[int, str]:
    kwargs = message.additional_kwargs
    return int(kwargs.get(SPAN_VERSION_KEY, 0)), str(kwargs.get(SPAN_HASH_KEY, ""))


@dataclass
class SpanRecord:
    span_id: str
    content: str
    version: int = 0
    content_hash: str = ""
    produced_by: str = "ingest"
    kind: str = "source"
    tombstoned: bool = False
    created_ts: float = field(default_factory=time.time)
    parent_id: str | None = None
    source_ids: list[str] = field(default_factory=list)
    sentence_offsets: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = content_digest(self.content)
        if not self.sentence_offsets:
            self.sentence_offsets = sentence_offsets(self.content)

    def to_value(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "version": self.version,
            "content_hash": self.content_hash,
            "produced_by": self.produced_by,
            "kind": self.kind,
            "tombstoned": self.tombstoned,
            "created_ts": self.created_ts,
            "parent_id": self.parent_id,
            "source_ids": list(self.source_ids),
            "sentence_offsets": [list(o) for o in self.sentence_offsets],
        }

    @classmethod
    def from_item(cls, item: Item) -> "SpanRecord":
        v = item.value
        return cls(
            span_id=item.key,
            content=v["content"],
            version=int(v.get("version", 0)),
            content_hash=v.get("content_hash", ""),
            produced_by=v.get("produced_by", "ingest"),
            kind=v.get("kind", "source"),
            tombstoned=bool(v.get("tombstoned", False)),
            created_ts=float(v.get("created_ts", item.created_at.timestamp())),
            parent_id=v.get("parent_id"),
            source_ids=list(v.get("source_ids", [])),
            sentence_offsets=[list(o) for o in v.get("sentence_offsets", [])],
        )


@dataclass
class Note:
    """A scratchpad note the agent keeps between turns."""

    note_id: str
    text: str
    tags: list[str] = field(default_factory=list)
    updated_ts: float = field(default_factory=time.time)


@dataclass
class Citation:
    span_id: str
    start: int
    end: int
    quote: str


@dataclass(frozen=True)
class PinnedQuote:
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int


@dataclass(frozen=True)
class EmbeddingRecord:
    span_id: str
    version: int
    content_hash: str
    vector: tuple[float, ...]


@dataclass(frozen=True)
class DecisionEntry:
    entry_id: str
    action: str
    target_ids: tuple[str, ...]
    rationale: str
    evidence: tuple[str, ...]
    ts: float


class StaleSpanError(RuntimeError):
    """A derived artifact no longer matches the span it was built from."""
