# rules: SPL201
"""A retriever that caches embeddings of context spans."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class Embedder(Protocol):
    def embed(self, text: str) -> list[float]: ...


@dataclass
class Span:
    span_id: str
    content: str
    version: int = 0
    content_hash: str = ""


class Retriever:
    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._embedding_cache: dict[str, list[float]] = {}
        self._spans: dict[str, Span] = {}
        self._versioned: dict[tuple[str, int, str], list[float]] = {}

    def add(self, span: Span) -> None:
        self._spans[span.span_id] = span
        self._embedding_cache[span.span_id] = self.embedder.embed(span.content)  # expect: SPL201

    def vector(self, span_id: str) -> list[float]:
        return self._embedding_cache[span_id]  # expect: SPL201

    def maybe_vector(self, span_id: str) -> list[float] | None:
        return self._embedding_cache.get(span_id)  # expect: SPL201

    def forget(self, span_id: str) -> None:
        del self._embedding_cache[span_id]
        self._embedding_cache.pop(span_id, None)

    def has(self, span_id: str) -> bool:
        return span_id in self._embedding_cache

    def versioned_vector(self, span: Span) -> list[float]:
        key = (span.span_id, span.version, span.content_hash)
        if key not in self._versioned:
            self._versioned[key] = self.embedder.embed(span.content)
        return self._versioned[key]

    def get_span(self, span_id: str) -> Span:
        return self._spans[span_id]


@dataclass
class Index:
    embedder: Embedder
    embeddings: dict[str, list[float]] = field(default_factory=dict)

    async def aadd(self, node: Span) -> None:
        vector = self.embedder.embed(node.content)
        self.embeddings[node.span_id] = vector  # expect: SPL201

    async def aadd_versioned(self, node: Span) -> None:
        self.embeddings[f"{node.span_id}:{node.version}"] = self.embedder.embed(node.content)
