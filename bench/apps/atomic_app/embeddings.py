"""Embeddings for spans."""

from __future__ import annotations

import hashlib
import math
from typing import Optional

from .models import SpanBody

DIM = 64


def embed_text(text: str, dim: int = DIM) -> list[float]:
    vec = [0.0] * dim
    for tok in text.lower().split():
        h = int.from_bytes(hashlib.blake2b(tok.encode(), digest_size=8).digest(), "big")
        vec[h % dim] += 1.0 if (h >> 8) & 1 else -1.0
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


class SpanEmbedder:
    def __init__(self) -> None:
        self._vectors: dict[str, list[float]] = {}

    def vector_for(self, body: SpanBody) -> list[float]:
        vec = self._vectors.get(body.span_id)
        if vec is None:
            vec = embed_text(body.text)
            self._vectors[body.span_id] = vec
        return vec

    def rank(self, query: str, bodies: list[SpanBody], k: int = 5) -> list[tuple[float, SpanBody]]:
        q = embed_text(query)
        scored = [(cosine(q, self.vector_for(b)), b) for b in bodies if not b.tombstoned]
        scored.sort(key=lambda t: t[0], reverse=True)
        return scored[:k]


class VersionedEmbeddingIndex:
    def __init__(self) -> None:
        self._vectors: dict[tuple[str, int, str], list[float]] = {}

    @staticmethod
    def key(body: SpanBody) -> tuple[str, int, str]:
        return (body.span_id, body.version, body.content_hash)

    def get(self, body: SpanBody) -> Optional[list[float]]:
        return self._vectors.get(self.key(body))

    def put(self, body: SpanBody) -> list[float]:
        vec = embed_text(body.text)
        self._vectors[self.key(body)] = vec
        return vec

    def vector_for(self, body: SpanBody) -> list[float]:
        return self.get(body) or self.put(body)

    def drop_span(self, span_id: str) -> None:
        for k in [k for k in self._vectors if k[0] == span_id]:
            del self._vectors[k]
