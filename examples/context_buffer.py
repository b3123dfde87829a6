"""A small agent context buffer with the operators that edit it.

This module is spanlint's shipped example: each of its rules fires once here.
Run `spanlint check examples/` to see them.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import Callable


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Span:
    span_id: str
    content: str
    version: int = 0
    content_hash: str = ""
    tombstoned: bool = False
    tombstoned_at: float = 0.0


@dataclass
class ChatMessage:
    """A chat turn as a provider returns it: an id and content, no version, no hash."""

    id: str
    role: str
    content: str


@dataclass
class RetrievedChunk:
    chunk_id: str
    text: str
    version: int = 0
    embedding: list[float] | None = None


@dataclass
class Citation:
    span_id: str
    start: int
    end: int


@dataclass
class DecisionLog:
    entries: list[dict] = field(default_factory=list)

    def record(self, **entry: object) -> None:
        self.entries.append(dict(entry))


class ContextBuffer:
    def __init__(self, summarize: Callable[[str], str], embed: Callable[[str], list[float]]) -> None:
        self._spans: dict[str, Span] = {}
        self._embeddings: dict[str, list[float]] = {}
        self.decision_log = DecisionLog()
        self.summarize = summarize
        self.embed = embed
        self.running_summary = ""

    def add(self, span: Span) -> None:
        span.content_hash = digest(span.content)
        self._spans[span.span_id] = span

    def compress_task(self, span_id: str) -> None:
        """Shorten the current-task span (a planner stage holds offsets into it)."""
        span = self._spans[span_id]
        span.content = self.summarize(span.content)
        span.content_hash = digest(span.content)

    def redact(self, span_id: str, secret: str) -> None:
        span = self._spans[span_id]
        span.content = span.content.replace(secret, "[redacted]")
        span.version += 1

    def embedding_for(self, span: Span) -> list[float]:
        return self._embeddings.setdefault(span.span_id, self.embed(span.content))

    def roll_summary(self, turns: list[str]) -> str:
        self.running_summary = self.summarize(self.running_summary + "\n".join(turns))
        return self.running_summary

    def compact(self, budget: int) -> None:
        """Drop the oldest spans until the buffer fits the budget."""
        while sum(len(s.content) for s in self._spans.values()) > budget:
            oldest = next(iter(self._spans))
            del self._spans[oldest]
            self.decision_log.record(action="prune", span_id=oldest, reason="over budget")

    def forget_last_decision(self) -> None:
        self.decision_log.entries.pop()

    def collect_tombstones(self, max_age: float) -> None:
        now = time.time()
        for span_id, span in list(self._spans.items()):
            if span.tombstoned and now - span.tombstoned_at > max_age:
                self.decision_log.record(action="gc", span_id=span_id, reason="tombstone expired")
                del self._spans[span_id]

    def quote(self, citation: Citation) -> str:
        span = self._spans[citation.span_id]
        return span.content[citation.start:citation.end]


def normalize_whitespace(message: ChatMessage) -> None:
    message.content = " ".join(message.content.split())


def refresh_chunk(chunk: RetrievedChunk, text: str) -> None:
    chunk.text = text
    chunk.version += 1
