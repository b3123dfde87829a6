"""Span types and buffers shared by the runtime guard tests."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

SECRET = "sk-live-TOPSECRET-4242-do-not-print"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Span:
    """A versioned, hashed span (the common agent-framework shape)."""

    span_id: str
    content: str
    version: int = 1
    content_hash: str = ""
    embedding: list | None = None
    tombstoned: bool = False
    produced_by: str = ""
    sources: tuple = ()

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = sha(self.content)

    def rewrite(self, text: str) -> None:
        """A correct in-place rewrite: new content, next version, its hash, derived fields reset."""
        self.content = text
        self.version += 1
        self.content_hash = sha(text)
        self.embedding = None


class Buffer:
    """A context buffer that keeps its spans in a private dict, as agent frameworks do."""

    def __init__(self, spans: list[Span]) -> None:
        self._spans = {span.span_id: span for span in spans}

    def __getitem__(self, span_id: str) -> Span:
        return self._spans[span_id]

    def ids(self) -> list[str]:
        return list(self._spans)


class Node:
    """LlamaIndex-style node: `id_`, `text`, a `hash` computed from the text, no version."""

    def __init__(self, id_: str, text: str, start_char_idx: int | None = None,
                 end_char_idx: int | None = None, embedding: list | None = None) -> None:
        self.id_ = id_
        self.text = text
        self.start_char_idx = start_char_idx
        self.end_char_idx = end_char_idx
        self.embedding = embedding

    @property
    def hash(self) -> str:
        return sha(self.text)


class Message:
    """LangChain-style message: `id`, `content`, neither version nor hash."""

    def __init__(self, id: str, content: str) -> None:
        self.id = id
        self.content = content


def make_spans(count: int, size: int = 40, prefix: str = "s") -> list[Span]:
    return [Span(f"{prefix}{i}", f"{i:06d}" + "x" * (size - 6)) for i in range(count)]


@dataclass
class Context:
    """An object holding spans in a list and a decision log, as a compaction pass receives it."""

    spans: list = field(default_factory=list)
    decision_log: list = field(default_factory=list)
