"""Embedding caches and the store's semantic index configuration."""

from __future__ import annotations

import hashlib
import math

from langchain_core.embeddings import Embeddings
from langgraph.store.base import IndexConfig
from langgraph.store.memory import InMemoryStore

from .models import EmbeddingRecord, SpanRecord
from .settings import Settings


class HashingEmbeddings(Embeddings):
    """Bag-of-words feature hashing; good enough for local runs and tests."""

    def __init__(self, dims: int) -> None:
        self.dims = dims

    def _embed(self, text: str) -> list[float]:
        vec = [0.0] * self.dims
        for token in text.lower().split():
            h = int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "big")
            vec[h % self.dims] += 1.0 if (h >> 63) else -1.0
        norm = math.sqrt(sum(x * x for x in vec)) or 1.0
        return [x / norm for x in vec]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._embed(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._embed(text)


def make_embeddings(settings: Settings) -> Embeddings:
    return HashingEmbeddings(settings.embed_dims)


def make_store(settings: Settings, embeddings: Embeddings | None = None) -> InMemoryStore:
    index: IndexConfig = {
        "dims": settings.embed_dims,
        "embed": embeddings or make_embeddings(settings),
        "fields": ["content"],
    }
    return InMemoryStore(index=index)


class EmbeddingCache:
    """Memoises span embeddings for the reranker."""

    def __init__(self, embeddings: Embeddings) -> None:
        self._embeddings = embeddings
        self._vectors: dict[str, list[float]] = {}

    def vector_for(self, rec: SpanRecord) -> list[float]:
        vec = self._vectors.get(rec.span_id)
        if vec is None:
            vec = self._embeddings.embed_query(rec.content)
            self._vectors[rec.span_id] = vec
        return vec

    def warm(self, records: list[SpanRecord]) -> None:
        missing = [r for r in records if r.span_id not in self._vectors]
        if not missing:
            return
        vectors = self._embeddings.embed_documents([r.content for r in missing])
        self._vectors.update({r.span_id: v for r, v in zip(missing, vectors)})

    def held_ids(self) -> set[str]:
        return set(self._vectors)


class VersionedEmbeddingIndex:
    """Embeddings addressed by (span_id, version, content_hash)."""

    def __init__(self, embeddings: Embeddings) -> None:
        self._embeddings = embeddings
        self._records: dict[tuple[str, int, str], EmbeddingRecord] = {}

    def record_for(self, rec: SpanRecord) -> EmbeddingRecord:
        key = (rec.span_id, rec.version, rec.content_hash)
        hit = self._records.get(key)
        if hit is None:
            vec = self._embeddings.embed_query(rec.content)
            hit = EmbeddingRecord(rec.span_id, rec.version, rec.content_hash, tuple(vec))
            self._records[key] = hit
        return hit

    def held_ids(self) -> set[str]:
        return {span_id for span_id, _, _ in self._records}


def cosine(a: list[float] | tuple[float, ...], b: list[float] | tuple[float, ...]) -> float:
    num = sum(x * y for x, y in zip(a, b))
    den = (sum(x * x for x in a) ** 0.5) * (sum(y * y for y in b) ** 0.5)
    return num / den if den else 0.0
