"""Embedding caches over knowledge documents and context spans."""
from __future__ import annotations

import time
from typing import Dict, List, Optional, Tuple

from agno.knowledge.document import Document
from agno.knowledge.embedder import Embedder

from agno_team.models import ContextSpan, content_digest


class EmbeddingCache:
    """Memoizes document vectors so repeated retrieval passes stay cheap."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: Dict[str, List[float]] = {}

    def vector_for(self, doc: Document) -> List[float]:
        doc_id = doc.id or doc.name or ""
        cached = self._vectors.get(doc_id)
        if cached is not None:
            return cached
        vector = self._embedder.get_embedding(doc.content)
        self._vectors[doc_id] = vector
        return vector

    def warm(self, docs: List[Document]) -> None:
        for doc in docs:
            self.vector_for(doc)


class SpanEmbeddingIndex:
    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: Dict[Tuple[str, int, str], List[float]] = {}

    def vector_for(self, span: ContextSpan) -> List[float]:
        key = span.key
        vector = self._vectors.get(key)
        if vector is None:
            vector = self._embedder.get_embedding(span.content)
            self._vectors[key] = vector
        return vector

    def drop_span(self, span_id: str) -> None:
        for key in [k for k in self._vectors if k[0] == span_id]:
            del self._vectors[key]


def refresh_document(doc: Document, new_text: str) -> Document:
    meta = doc.meta_data
    meta["version"] = int(meta.get("version", 0)) + 1
    meta["content_hash"] = content_digest(new_text)
    meta["refreshed_at"] = time.time()
    doc.content = new_text
    doc.size = len(new_text)
    return doc


def reembed_document(doc: Document, new_text: str, embedder: Optional[Embedder] = None) -> Document:
    meta = doc.meta_data
    meta["version"] = int(meta.get("version", 0)) + 1
    meta["content_hash"] = content_digest(new_text)
    doc.content = new_text
    doc.size = len(new_text)
    doc.embedding = None
    doc.usage = None
    doc.embed(embedder or doc.embedder)
    return doc
