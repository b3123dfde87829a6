"""Embedding lookups for context spans (reranking and dedup)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from crewai.memory.types import embed_text, embed_texts
from crewai.rag.embeddings.factory import build_embedder

from crew_flow.spans import ContextSpan

log = logging.getLogger(__name__)

Embedder = Callable[[list[str]], Any]

DEFAULT_EMBEDDER_SPEC: dict[str, Any] = {
    "provider": "openai",
    "config": {"model": "text-embedding-3-small"},
}


def make_embedder(spec: dict[str, Any] | None = None) -> Embedder:
    return build_embedder(spec or DEFAULT_EMBEDDER_SPEC)  # type: ignore[arg-type]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    va, vb = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    denom = float(np.linalg.norm(va) * np.linalg.norm(vb))
    return float(va @ vb / denom) if denom else 0.0


class SpanEmbeddingCache:
    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: dict[str, list[float]] = {}
        self.hits = 0

    def vector_for(self, span: ContextSpan) -> list[float]:
        vec = self._vectors.get(span.id)
        if vec is not None:
            self.hits += 1
            return vec
        vec = embed_text(self._embedder, span.content)
        self._vectors[span.id] = vec
        return vec

    def warm(self, spans: Sequence[ContextSpan]) -> None:
        todo = [s for s in spans if s.id not in self._vectors]
        if not todo:
            return
        for span, vec in zip(todo, embed_texts(self._embedder, [s.content for s in todo])):
            self._vectors[span.id] = vec

    def rank(self, query: str, spans: Sequence[ContextSpan], k: int = 8) -> list[ContextSpan]:
        self.warm(spans)
        q = embed_text(self._embedder, query)
        scored = sorted(spans, key=lambda s: cosine(q, self.vector_for(s)), reverse=True)
        return scored[:k]


class VersionedEmbeddingIndex:
    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: dict[tuple[str, int, str], list[float]] = {}

    @staticmethod
    def _key(span: ContextSpan) -> tuple[str, int, str]:
        return (span.id, span.version, span.content_hash)

    def vector_for(self, span: ContextSpan) -> list[float]:
        key = self._key(span)
        if key not in self._vectors:
            self._vectors[key] = embed_text(self._embedder, span.content)
        return self._vectors[key]

    def evict_older(self, span: ContextSpan) -> None:
        for key in [k for k in self._vectors if k[0] == span.id and k != self._key(span)]:
            del self._vectors[key]

    def near_duplicates(
        self, spans: Sequence[ContextSpan], threshold: float = 0.95
    ) -> list[tuple[str, str]]:
        pairs: list[tuple[str, str]] = []
        vecs = [(s, self.vector_for(s)) for s in spans]
        for i, (a, va) in enumerate(vecs):
            for b, vb in vecs[i + 1 :]:
                if cosine(va, vb) >= threshold:
                    pairs.append((a.id, b.id))
        return pairs
