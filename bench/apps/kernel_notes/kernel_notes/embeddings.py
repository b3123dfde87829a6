"""Embedding and token-count helpers with small in-process caches."""

from __future__ import annotations

from semantic_kernel.connectors.ai.embedding_generator_base import EmbeddingGeneratorBase

from kernel_notes.spans import NoteSpan, SpanKey


class EmbeddingCache:
    def __init__(self, generator: EmbeddingGeneratorBase) -> None:
        self._generator = generator
        self._vectors: dict[str, list[float]] = {}

    async def embed(self, span: NoteSpan) -> list[float]:
        hit = self._vectors.get(span.span_id)
        if hit is not None:
            return hit
        array = await self._generator.generate_embeddings([span.text])
        vector = [float(x) for x in array[0]]
        self._vectors[span.span_id] = vector
        return vector

    async def embed_text(self, text: str) -> list[float]:
        array = await self._generator.generate_embeddings([text])
        return [float(x) for x in array[0]]

    def forget(self, span_id: str) -> None:
        self._vectors.pop(span_id, None)


class TokenBudget:
    """Approximate token counts per span revision, used to plan compaction."""

    def __init__(self) -> None:
        self._counts: dict[SpanKey, int] = {}

    def count(self, span: NoteSpan) -> int:
        key = span.key
        cached = self._counts.get(key)
        if cached is None:
            cached = max(1, round(len(span.text) / 4))
            self._counts[key] = cached
        return cached
