"""Core records for the context buffer and the artifacts derived from it."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from dataclasses import field
from typing import Optional

from google.adk.events.event import Event
from google.genai import types

_SENTENCE = re.compile(r"[^.!?]+[.!?]*")


class StaleSpanError(RuntimeError):
    """A derived artifact no longer matches the span it was built from."""


def content_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _SENTENCE.finditer(text) if m.group().strip()]


def content_text(content: Optional[types.Content]) -> str:
    if content is None or not content.parts:
        return ""
    return "\n".join(p.text for p in content.parts if p.text)


def event_text(event: Event) -> str:
    return content_text(event.content)


@dataclass
class SpanRecord:
    span_id: str
    content: str
    version: int = 0
    content_hash: str = ""
    produced_by: str = "ingest"
    source_event_id: Optional[str] = None
    sentence_spans: list[tuple[int, int]] = field(default_factory=list)
    tombstoned_at: Optional[float] = None

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = content_digest(self.content)
        if not self.sentence_spans:
            self.sentence_spans = sentence_bounds(self.content)

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.span_id, self.version, self.content_hash)


@dataclass
class ScratchNote:
    note_id: str
    text: str
    author: str = "agent"
    pinned: bool = False


@dataclass(frozen=True)
class OffsetMap:
    span_id: str
    version: int
    content_hash: str
    offsets: tuple[tuple[int, int], ...]


@dataclass
class Citation:
    span_id: str
    start: int
    end: int
    label: str = ""


@dataclass(frozen=True)
class AnchoredCitation:
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int
    label: str = ""
