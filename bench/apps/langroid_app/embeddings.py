"""Embedding caches and a small in-process semantic index."""
from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple

from langroid.embedding_models.base import EmbeddingModel
from langroid.embedding_models.models import OpenAIEmbeddingsConfig
from langroid.mytypes import Document, Embedding

from .models import ContextSpan, IndexedChunk


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    num = sum(x * y for x, y in zip(a, b))
    den = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return num / den if den else 0.0


def make_model(model_name: str = "text-embedding-3-small") -> EmbeddingModel:
    return EmbeddingModel.create(OpenAIEmbeddingsConfig(model_name=model_name))


class ChunkEmbeddingCache:
    """Avoids re-embedding retrieved chunks on every turn."""

    def __init__(self, model: EmbeddingModel) -> None:
        self._embed = model.embedding_fn()
        self._vectors: Dict[str, Embedding] = {}

    def embed_docs(self, docs: List[Document]) -> List[Embedding]:
        missing = [d for d in docs if d.id() not in self._vectors]
        if missing:
            vectors = self._embed([d.content for d in missing])
            self._vectors.update({d.id(): v for d, v in zip(missing, vectors)})
        return [self._vectors[d.id()] for d in docs]

    def forget(self, doc_id: str) -> None:
        self._vectors.pop(doc_id, None)


class SpanEmbeddingCache:
    def __init__(self, model: EmbeddingModel) -> None:
        self._embed = model.embedding_fn()
        self._vectors: Dict[Tuple[str, int, str], Embedding] = {}

    def embed_spans(self, spans: List[ContextSpan]) -> List[Embedding]:
        keys = [(s.span_id, s.version, s.content_hash) for s in spans]
        todo = [(k, s) for k, s in zip(keys, spans) if k not in self._vectors]
        if todo:
            vectors = self._embed([s.content for _, s in todo])
            for (key, _), vec in zip(todo, vectors):
                self._vectors[key] = vec
        return [self._vectors[k] for k in keys]


class ChunkIndex:
    def __init__(self, model: EmbeddingModel) -> None:
        self._embed = model.embedding_fn()
        self.chunks: Dict[str, IndexedChunk] = {}

    def add_documents(self, docs: List[Document]) -> None:
        fresh = [IndexedChunk.from_document(d) for d in docs]
        vectors = self._embed([c.text for c in fresh])
        for chunk, vec in zip(fresh, vectors):
            chunk.embedding = vec
            self.chunks[chunk.chunk_id] = chunk

    def refresh(self) -> int:
        stale = [c for c in self.chunks.values() if c.embedding is None]
        if stale:
            for chunk, vec in zip(stale, self._embed([c.text for c in stale])):
                chunk.embedding = vec
        return len(stale)

    def search(self, query: str, k: int = 5) -> List[Tuple[IndexedChunk, float]]:
        self.refresh()
        [qv] = self._embed([query])
        scored = [
            (c, _cosine(qv, c.embedding))
            for c in self.chunks.values()
            if c.embedding is not None
        ]
        scored.sort(key=lambda t: t[1], reverse=True)
        return scored[:k]

    def get(self, chunk_id: str) -> Optional[IndexedChunk]:
        return self.chunks.get(chunk_id)
