"""Embedding and token caches in front of the crew's embedder."""

import functools
from typing import Any, Callable

from crewai.memory import embed_text

from crew_memory.spans import Span

Embedder = Callable[[list[str]], Any]


@functools.lru_cache(maxsize=4096)
def count_tokens(text: str) -> int:
    return max(1, len(text.split()) * 4 // 3)


class EmbeddingCache:
    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: dict[str, list[float]] = {}
        self._token_counts: dict[str, int] = {}

    def vector(self, span: Span) -> list[float]:
        hit = self._vectors.get(span.span_id)
        if hit is None:
            hit = self._vectors[span.span_id] = embed_text(self._embedder, span.content)
        return hit

    def tokens(self, span: Span) -> int:
        return self._token_counts.setdefault(span.span_id, count_tokens(span.content))


class VersionedEmbeddingCache:
    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: dict[tuple[str, int, str], list[float]] = {}

    def vector(self, span: Span) -> list[float]:
        key = (span.span_id, span.version, span.content_hash)
        if key not in self._vectors:
            self._vectors[key] = embed_text(self._embedder, span.content)
        return self._vectors[key]
