"""Embedding caches so repeated retrieval passes do not re-embed the same article."""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable

from haystack import Document

from .spans import SpanKey

EmbedFn = Callable[[str], list[float]]


class EmbeddingCache:
    """Small LRU cache used by the query-time reranker."""

    def __init__(self, embed: EmbedFn, capacity: int = 2048) -> None:
        self._embed = embed
        self._capacity = capacity
        self._vectors: OrderedDict[str, list[float]] = OrderedDict()

    def get_or_embed(self, doc: Document) -> list[float]:
        cached = self._vectors.get(doc.id)
        if cached is not None:
            self._vectors.move_to_end(doc.id)
            return cached
        vector = self._embed(doc.content or "")
        self._vectors[doc.id] = vector
        if len(self._vectors) > self._capacity:
            self._vectors.popitem(last=False)
        return vector

    def warm(self, docs: list[Document]) -> None:
        for doc in docs:
            self.get_or_embed(doc)


class VersionedEmbeddingCache:
    """Same as EmbeddingCache but entries are addressed by id, version and content hash."""

    def __init__(self, embed: EmbedFn, capacity: int = 2048) -> None:
        self._embed = embed
        self._capacity = capacity
        self._vectors: OrderedDict[SpanKey, list[float]] = OrderedDict()

    def get_or_embed(self, doc: Document) -> list[float]:
        key = SpanKey.of(doc)
        cached = self._vectors.get(key)
        if cached is not None:
            self._vectors.move_to_end(key)
            return cached
        vector = self._embed(doc.content or "")
        self._vectors[key] = vector
        if len(self._vectors) > self._capacity:
            self._vectors.popitem(last=False)
        return vector

    def evict_span(self, span_id: str) -> int:
        stale = [k for k in self._vectors if k.span_id == span_id]
        for key in stale:
            del self._vectors[key]
        return len(stale)


def cosine(a: list[float], b: list[float]) -> float:
    num = sum(x * y for x, y in zip(a, b))
    den = (sum(x * x for x in a) ** 0.5) * (sum(y * y for y in b) ** 0.5)
    return num / den if den else 0.0


def rerank(query_vec: list[float], docs: list[Document], cache: EmbeddingCache | VersionedEmbeddingCache) -> list[Document]:
    scored = [(cosine(query_vec, cache.get_or_embed(d)), d) for d in docs]
    scored.sort(key=lambda pair: pair[0], reverse=True)
    for score, doc in scored:
        doc.score = score
    return [doc for _, doc in scored]
