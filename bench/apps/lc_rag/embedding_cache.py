"""Embedding caches in front of the embedding model.

Embedding calls are the most expensive part of ingestion and re-indexing, so
vectors are cached in a ``BaseStore``.
"""

from __future__ import annotations

import json
from typing import Sequence

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.stores import BaseStore, InMemoryByteStore

from .records import fingerprint


def _encode(vector: list[float]) -> bytes:
    return json.dumps(vector).encode("utf-8")


def _decode(blob: bytes) -> list[float]:
    return json.loads(blob.decode("utf-8"))


class ChunkEmbeddingCache:
    """Per-chunk vector cache used by the nightly re-index job."""

    def __init__(self, embeddings: Embeddings, store: BaseStore[str, bytes] | None = None) -> None:
        self.embeddings = embeddings
        self.store = store or InMemoryByteStore()

    def embed_chunks(self, docs: Sequence[Document]) -> list[list[float]]:
        keys = [f"emb:{doc.id}" for doc in docs]
        cached = self.store.mget(keys)
        missing = [i for i, blob in enumerate(cached) if blob is None]
        if missing:
            fresh = self.embeddings.embed_documents([docs[i].page_content for i in missing])
            self.store.mset([(keys[i], _encode(v)) for i, v in zip(missing, fresh)])
            for i, v in zip(missing, fresh):
                cached[i] = _encode(v)
        return [_decode(blob) for blob in cached if blob is not None]


class VersionedEmbeddingCache:
    """Vector cache keyed on the chunk's id, version and content hash."""

    def __init__(self, embeddings: Embeddings, store: BaseStore[str, bytes] | None = None) -> None:
        self.embeddings = embeddings
        self.store = store or InMemoryByteStore()

    @staticmethod
    def key_for(doc: Document) -> str:
        doc_id, version, digest = fingerprint(doc)
        return f"emb:{doc_id}:v{version}:{digest}"

    def embed_chunks(self, docs: Sequence[Document]) -> list[list[float]]:
        keys = [self.key_for(doc) for doc in docs]
        cached = self.store.mget(keys)
        todo = [i for i, blob in enumerate(cached) if blob is None]
        if todo:
            fresh = self.embeddings.embed_documents([docs[i].page_content for i in todo])
            self.store.mset([(keys[i], _encode(v)) for i, v in zip(todo, fresh)])
            for i, v in zip(todo, fresh):
                cached[i] = _encode(v)
        return [_decode(blob) for blob in cached if blob is not None]


class CachedEmbeddings(Embeddings):
    """Wraps an ``Embeddings`` so the vector store benefits from the cache."""

    def __init__(self, inner: Embeddings, store: BaseStore[str, bytes] | None = None) -> None:
        self.inner = inner
        self.store = store or InMemoryByteStore()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        from .records import content_hash

        keys = [f"text:{content_hash(t)}" for t in texts]
        cached = self.store.mget(keys)
        todo = [i for i, blob in enumerate(cached) if blob is None]
        if todo:
            fresh = self.inner.embed_documents([texts[i] for i in todo])
            self.store.mset([(keys[i], _encode(v)) for i, v in zip(todo, fresh)])
            for i, v in zip(todo, fresh):
                cached[i] = _encode(v)
        return [_decode(b) for b in cached if b is not None]

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)
