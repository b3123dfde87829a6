"""Embedding caches and the document chunk index."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from camel.embeddings import BaseEmbedding
from camel.memories import MemoryRecord

from .models import SpanKey, digest, record_id
from .operators import normalize_text


def cosine(a: List[float], b: List[float]) -> float:
    num = sum(x * y for x, y in zip(a, b))
    den = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return num / den if den else 0.0


class EmbeddingCache:
    def __init__(self, embedding: BaseEmbedding[str]) -> None:
        self.embedding = embedding
        self._cache: Dict[str, List[float]] = {}

    def vector(self, record: MemoryRecord) -> List[float]:
        sid = record_id(record)
        vec = self._cache.get(sid)
        if vec is None:
            vec = self.embedding.embed(record.message.content)
            self._cache[sid] = vec
        return vec

    def nearest(self, query: str, records: List[MemoryRecord], k: int = 5) -> List[MemoryRecord]:
        q = self.embedding.embed(query)
        scored = sorted(records, key=lambda r: cosine(q, self.vector(r)), reverse=True)
        return scored[:k]


class VersionedEmbeddingCache:
    def __init__(self, embedding: BaseEmbedding[str]) -> None:
        self.embedding = embedding
        self._cache: Dict[SpanKey, List[float]] = {}

    def vector(self, record: MemoryRecord) -> List[float]:
        key = SpanKey.of(record)
        if key not in self._cache:
            self._cache[key] = self.embedding.embed(record.message.content)
        return self._cache[key]

    def forget(self, span_id: str) -> None:
        for key in [k for k in self._cache if k.span_id == span_id]:
            del self._cache[key]


@dataclass
class Chunk:
    chunk_id: str
    doc_id: str
    text: str
    version: int = 0
    content_hash: str = ""
    char_start: int = 0
    char_end: int = 0
    embedding: Optional[List[float]] = None

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.text)


@dataclass
class ChunkIndex:
    embedding: BaseEmbedding[str]
    chunks: Dict[str, Chunk] = field(default_factory=dict)

    def add_document(self, doc_id: str, text: str, size: int = 800) -> List[Chunk]:
        out = []
        for n, start in enumerate(range(0, len(text), size)):
            piece = text[start:start + size]
            chunk = Chunk(
                chunk_id=f"{doc_id}#{n}",
                doc_id=doc_id,
                text=piece,
                char_start=start,
                char_end=start + len(piece),
            )
            chunk.embedding = self.embedding.embed(piece)
            self.chunks[chunk.chunk_id] = chunk
            out.append(chunk)
        return out

    def tidy(self) -> int:
        touched = 0
        for chunk in self.chunks.values():
            tidy = normalize_text(chunk.text)
            if tidy != chunk.text:
                chunk.text = tidy
                chunk.version += 1
                chunk.content_hash = digest(tidy)
                touched += 1
        return touched

    def replace_text(self, chunk_id: str, text: str) -> Chunk:
        chunk = self.chunks[chunk_id]
        chunk.text = text
        chunk.version += 1
        chunk.content_hash = digest(text)
        chunk.char_end = chunk.char_start + len(text)
        chunk.embedding = self.embedding.embed(text)
        return chunk

    def search(self, query: str, k: int = 5) -> List[Tuple[float, Chunk]]:
        q = self.embedding.embed(query)
        scored = [(cosine(q, c.embedding or []), c) for c in self.chunks.values()]
        scored.sort(key=lambda pair: pair[0], reverse=True)
        return scored[:k]
