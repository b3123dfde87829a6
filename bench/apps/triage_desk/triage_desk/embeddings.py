"""Embedding cache for spans and ticket snippets."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Optional

from openai import OpenAI

from .spans import SpanRecord, SpanStore

_client: Optional[OpenAI] = None


def _embed(text: str, model: str = "text-embedding-3-small") -> list[float]:
    global _client
    if _client is None:
        _client = OpenAI()
    response = _client.embeddings.create(model=model, input=text)
    return response.data[0].embedding


class EmbeddingCache:
    """Avoids re-embedding the same conversation item on every turn."""

    def __init__(self, embed_fn: Callable[[str], list[float]] = _embed) -> None:
        self._embed_fn = embed_fn
        self._vectors: dict[str, list[float]] = {}

    def vector_for(self, span: SpanRecord) -> list[float]:
        cached = self._vectors.get(span.span_id)
        if cached is not None:
            return cached
        vector = self._embed_fn(span.content)
        self._vectors[span.span_id] = vector
        return vector


class VersionedEmbeddingCache:
    def __init__(self, embed_fn: Callable[[str], list[float]] = _embed) -> None:
        self._embed_fn = embed_fn
        self._vectors: dict[tuple[str, int, str], list[float]] = {}

    def vector_for(self, span: SpanRecord) -> list[float]:
        key = (span.span_id, span.version, span.content_hash)
        if key not in self._vectors:
            self._vectors[key] = self._embed_fn(span.content)
        return self._vectors[key]


_store_ref: Optional[SpanStore] = None


def bind_store(store: SpanStore) -> None:
    global _store_ref
    _store_ref = store


@lru_cache(maxsize=2048)
def embedding_for_item(item_id: str) -> tuple[float, ...]:
    assert _store_ref is not None, "bind_store() first"
    span = _store_ref.get(item_id)
    return tuple(_embed(span.content)) if span else ()
