"""Vector index over context spans, backed by pydantic-ai's Embedder."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from pydantic_ai import Embedder

from .spans import ContextStore, HolderRegistry, Span

DEFAULT_EMBEDDING_MODEL = "openai:text-embedding-3-small"


def _normalize(v: Sequence[float]) -> np.ndarray:
    arr = np.asarray(v, dtype=np.float32)
    n = float(np.linalg.norm(arr))
    return arr / n if n else arr


class EmbeddingIndex:
    """Semantic lookup used by the `search_case_context` tool."""

    def __init__(self, store: ContextStore, embedder: Embedder | None = None) -> None:
        self.store = store
        self.embedder = embedder or Embedder(DEFAULT_EMBEDDING_MODEL)
        self._vectors: dict[str, np.ndarray] = {}

    async def refresh(self) -> int:
        pending = [s for s in self.store.live() if s.span_id not in self._vectors]
        if not pending:
            return 0
        result = await self.embedder.embed_documents([s.content for s in pending])
        for s, vec in zip(pending, result.embeddings):
            self._vectors[s.span_id] = _normalize(vec)
        return len(pending)

    async def search(self, query: str, k: int = 5) -> list[tuple[str, float]]:
        await self.refresh()
        q = _normalize((await self.embedder.embed_query(query)).embeddings[0])
        scored = [
            (sid, float(vec @ q))
            for sid, vec in self._vectors.items()
            if sid in self.store
        ]
        scored.sort(key=lambda t: t[1], reverse=True)
        return scored[:k]

    def forget(self, span_id: str) -> None:
        self._vectors.pop(span_id, None)


@dataclass(frozen=True)
class SpanEmbedding:
    span_id: str
    version: int
    content_hash: str
    vector: np.ndarray


class VersionedEmbeddingCache:
    """Embedding cache for the reranker; entries are only valid for the exact span revision."""

    def __init__(self, embedder: Embedder, holders: HolderRegistry | None = None) -> None:
        self.embedder = embedder
        self.holders = holders
        self._cache: dict[tuple[str, int, str], SpanEmbedding] = {}

    @staticmethod
    def _key(span: Span) -> tuple[str, int, str]:
        return (span.span_id, span.version, span.content_hash)

    async def get(self, span: Span) -> SpanEmbedding:
        key = self._key(span)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        result = await self.embedder.embed_documents(span.content)
        emb = SpanEmbedding(span.span_id, span.version, span.content_hash, _normalize(result.embeddings[0]))
        self._cache[key] = emb
        if self.holders is not None:
            self.holders.hold(span.span_id, "reranker")
        return emb

    def evict_span(self, span_id: str) -> None:
        for key in [k for k in self._cache if k[0] == span_id]:
            del self._cache[key]
        if self.holders is not None:
            self.holders.release(span_id, "reranker")
