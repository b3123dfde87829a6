"""Embedding cache used by KB retrieval and the similar-ticket finder."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from .models import ContextSpan

Embedder = Callable[[str], Awaitable[list[float]]]


def cosine(a: list[float], b: list[float]) -> float:
    num = sum(x * y for x, y in zip(a, b))
    den = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return num / den if den else 0.0


@dataclass(frozen=True)
class VectorRecord:
    span_id: str
    vector: tuple[float, ...]
    span_version: int | None = None
    span_hash: str | None = None


class SpanEmbeddingCache:
    """Memoises span embeddings so repeated retrieval turns stay cheap."""

    def __init__(self, embed: Embedder) -> None:
        self._embed = embed
        self._vectors: dict[str, list[float]] = {}
        self._lock = asyncio.Lock()

    async def vector_for(self, span: ContextSpan) -> list[float]:
        key = span.span_id
        async with self._lock:
            cached = self._vectors.get(key)
        if cached is not None:
            return cached
        vec = await self._embed(span.text)
        async with self._lock:
            self._vectors[key] = vec
        return vec


class VersionedEmbeddingCache:
    def __init__(self, embed: Embedder) -> None:
        self._embed = embed
        self._vectors: dict[tuple[str, int, str], list[float]] = {}

    async def vector_for(self, span: ContextSpan) -> list[float]:
        key = (span.span_id, span.version, span.content_hash)
        if key not in self._vectors:
            self._vectors[key] = await self._embed(span.text)
        return self._vectors[key]


class VectorIndex:
    """A flat index persisted alongside the session database."""

    def __init__(self) -> None:
        self.records: list[VectorRecord] = []

    def upsert(self, span: ContextSpan, vector: list[float]) -> VectorRecord:
        self.records = [r for r in self.records if r.span_id != span.span_id]
        record = VectorRecord(span_id=span.span_id, vector=tuple(vector))
        self.records.append(record)
        return record

    def upsert_versioned(self, span: ContextSpan, vector: list[float]) -> VectorRecord:
        self.records = [r for r in self.records if r.span_id != span.span_id]
        record = VectorRecord(
            span_id=span.span_id,
            vector=tuple(vector),
            span_version=span.version,
            span_hash=span.content_hash,
        )
        self.records.append(record)
        return record

    def nearest(self, query: list[float], k: int = 3) -> list[VectorRecord]:
        ranked = sorted(self.records, key=lambda r: cosine(query, list(r.vector)), reverse=True)
        return ranked[:k]
