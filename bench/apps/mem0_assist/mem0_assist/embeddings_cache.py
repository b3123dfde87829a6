"""Embeddings for context spans and for mem0 search hits."""

from __future__ import annotations

from langchain_core.embeddings import Embeddings

from .records import ContextSpan, SpanKey


class SpanEmbedder:
    """Memoises span embeddings per span revision."""

    def __init__(self, embeddings: Embeddings) -> None:
        self._embeddings = embeddings
        self._cache: dict[SpanKey, list[float]] = {}

    def embed(self, span: ContextSpan) -> list[float]:
        vec = self._cache.get(span.key)
        if vec is None:
            vec = self._embeddings.embed_query(span.content)
            self._cache[span.key] = vec
        return vec


class MemoryRanker:
    """Re-ranks mem0 search hits against the live conversation topic."""

    def __init__(self, embeddings: Embeddings) -> None:
        self._embeddings = embeddings
        self._vectors: dict[str, list[float]] = {}

    async def rank(self, topic: str, hits: list[dict]) -> list[dict]:
        todo = [h for h in hits if h["id"] not in self._vectors]
        if todo:
            vecs = await self._embeddings.aembed_documents([h["memory"] for h in todo])
            self._vectors.update({h["id"]: v for h, v in zip(todo, vecs)})
        anchor = await self._embeddings.aembed_query(topic)
        # OpenAI embeddings are unit length, so the dot product is the cosine.
        return sorted(hits, key=lambda h: -sum(x * y for x, y in zip(anchor, self._vectors[h["id"]])))
