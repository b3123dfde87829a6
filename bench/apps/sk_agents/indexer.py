"""Chunking and embedding of context spans into in-memory vector collections."""

from __future__ import annotations

from typing import Awaitable, Callable

from semantic_kernel.connectors.ai.embedding_generator_base import EmbeddingGeneratorBase
from semantic_kernel.connectors.in_memory import InMemoryCollection

from sk_agents.records import PassageRecord, SpanChunk
from sk_agents.spans import ContextSpan, SpanStore

CHUNK_CHARS = 800
OVERLAP = 120


def _windows(text: str, size: int = CHUNK_CHARS, overlap: int = OVERLAP) -> list[tuple[int, int]]:
    if not text:
        return []
    step = max(size - overlap, 1)
    return [(i, min(i + size, len(text))) for i in range(0, max(len(text) - overlap, 1), step)]


class SpanIndexer:
    def __init__(
        self,
        embedder: EmbeddingGeneratorBase,
        chunks: InMemoryCollection[str, SpanChunk],
        passages: InMemoryCollection[str, PassageRecord],
    ) -> None:
        self._embedder = embedder
        self.chunks = chunks
        self.passages = passages

    async def setup(self) -> None:
        await self.chunks.ensure_collection_exists()
        await self.passages.ensure_collection_exists()

    async def index_span(self, span: ContextSpan) -> list[SpanChunk]:
        bounds = _windows(span.text)
        if not bounds:
            return []
        vectors = await self._embedder.generate_embeddings([span.text[a:b] for a, b in bounds])
        records = [
            SpanChunk(
                chunk_id=f"{span.span_id}#{n}",
                span_id=span.span_id,
                start=a,
                end=b,
                text=span.text[a:b],
                embedding=list(map(float, vec)),
            )
            for n, ((a, b), vec) in enumerate(zip(bounds, vectors))
        ]
        await self.chunks.upsert(records)
        return records

    async def compress_chunk(self, chunk_id: str, max_chars: int) -> SpanChunk | None:
        rec = await self.chunks.get(chunk_id, include_vectors=True)
        if rec is None or len(rec.text) <= max_chars:
            return rec
        rec.text = rec.text[:max_chars].rsplit(" ", 1)[0]
        await self.chunks.upsert(rec)
        return rec

    async def reindex_passage(self, store: SpanStore, passage_id: str) -> PassageRecord | None:
        old = await self.passages.get(passage_id)
        if old is None:
            return None
        span = store.find(old.span_id)
        if span is None or not span.alive:
            await self.passages.delete(passage_id)
            return None
        if (span.version, span.content_hash) == (old.span_version, old.span_hash):
            return old
        start, end = 0, min(len(span.text), CHUNK_CHARS)
        text = span.text[start:end]
        (vec,) = await self._embedder.generate_embeddings([text])
        fresh = PassageRecord(
            passage_id=passage_id,
            span_id=span.span_id,
            span_version=span.version,
            span_hash=span.content_hash,
            start=start,
            end=end,
            text=text,
            embedding=list(map(float, vec)),
        )
        await self.passages.upsert(fresh)
        return fresh


def make_span_embedder(embedder: EmbeddingGeneratorBase) -> Callable[[ContextSpan], Awaitable[list[float]]]:
    memo: dict[str, list[float]] = {}

    async def embed(span: ContextSpan) -> list[float]:
        hit = memo.get(span.span_id)
        if hit is None:
            (vec,) = await embedder.generate_embeddings([span.text])
            hit = memo[span.span_id] = list(map(float, vec))
        return hit

    return embed


class EmbeddingCache:
    def __init__(self, embedder: EmbeddingGeneratorBase, max_items: int = 10_000) -> None:
        self._embedder = embedder
        self._max = max_items
        self._vectors: dict[tuple[str, int, str], list[float]] = {}

    async def vector_for(self, span: ContextSpan) -> list[float]:
        key = (span.span_id, span.version, span.content_hash)
        vec = self._vectors.get(key)
        if vec is None:
            (raw,) = await self._embedder.generate_embeddings([span.text])
            vec = list(map(float, raw))
            if len(self._vectors) >= self._max:
                self._vectors.pop(next(iter(self._vectors)))
            self._vectors[key] = vec
        return vec
