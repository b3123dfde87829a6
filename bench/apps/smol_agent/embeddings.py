"""Embedding index over context spans (hashed bag-of-words, no external model)."""

from __future__ import annotations

import hashlib
import math
from typing import Callable, Iterable

from .models import ContextSpan

Vector = list[float]


def hash_embed(text: str, dim: int = 64) -> Vector:
    vec = [0.0] * dim
    for token in text.lower().split():
        h = int(hashlib.blake2b(token.encode(), digest_size=8).hexdigest(), 16)
        vec[h % dim] += 1.0 if (h >> 8) & 1 else -1.0
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


def cosine(a: Vector, b: Vector) -> float:
    return sum(x * y for x, y in zip(a, b))


class SimilarityIndex:
    def __init__(self, embed_fn: Callable[[str], Vector] = hash_embed) -> None:
        self._embed = embed_fn
        self._vectors: dict[str, Vector] = {}

    def index(self, spans: Iterable[ContextSpan]) -> None:
        for span in spans:
            if span.span_id not in self._vectors:
                self._vectors[span.span_id] = self._embed(span.content)

    def search(self, query: str, k: int = 5) -> list[tuple[str, float]]:
        q = self._embed(query)
        scored = [(sid, cosine(q, vec)) for sid, vec in self._vectors.items()]
        scored.sort(key=lambda item: item[1], reverse=True)
        return scored[:k]


class VersionedEmbeddingCache:
    def __init__(self, embed_fn: Callable[[str], Vector] = hash_embed) -> None:
        self._embed = embed_fn
        self._cache: dict[tuple[str, int, str], Vector] = {}

    def get(self, span: ContextSpan) -> Vector:
        key = (span.span_id, span.version, span.content_hash)
        if key not in self._cache:
            self._cache[key] = self._embed(span.content)
        return self._cache[key]

    def evict_span(self, span_id: str) -> None:
        for key in [k for k in self._cache if k[0] == span_id]:
            del self._cache[key]
