"""Cheap hashed bag-of-words embeddings and two indexes built on them."""

from __future__ import annotations

import hashlib
import math
import re
from typing import Iterable

from google.adk.events.event import Event

from .models import SpanRecord
from .models import event_text

_WORD = re.compile(r"\w+")


def embed_text(text: str, dim: int = 64) -> list[float]:
    vec = [0.0] * dim
    for word in _WORD.findall(text.lower()):
        h = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "big")
        vec[h % dim] += 1.0 if (h >> 16) & 1 else -1.0
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


class EmbeddingIndex:
    """Vectors for session events, used by recall between turns."""

    def __init__(self, dim: int = 64) -> None:
        self._dim = dim
        self._vectors: dict[str, list[float]] = {}

    def index_events(self, events: Iterable[Event]) -> int:
        added = 0
        for event in events:
            if event.id in self._vectors:
                continue
            text = event_text(event)
            if text:
                self._vectors[event.id] = embed_text(text, self._dim)
                added += 1
        return added

    def nearest(self, query: str, k: int = 5) -> list[tuple[str, float]]:
        q = embed_text(query, self._dim)
        scored = [(eid, cosine(q, v)) for eid, v in self._vectors.items()]
        scored.sort(key=lambda item: item[1], reverse=True)
        return scored[:k]


class VectorStore:
    """Vectors for buffer spans, addressed by the span's full key."""

    def __init__(self, dim: int = 64) -> None:
        self._dim = dim
        self._rows: dict[tuple[str, int, str], list[float]] = {}

    def upsert(self, rec: SpanRecord) -> tuple[str, int, str]:
        key = (rec.span_id, rec.version, rec.content_hash)
        if key not in self._rows:
            self._rows[key] = embed_text(rec.content, self._dim)
        return key

    def vector_for(self, rec: SpanRecord) -> list[float] | None:
        return self._rows.get(rec.key)

    def nearest(
        self, query: str, live: Iterable[SpanRecord], k: int = 5
    ) -> list[tuple[SpanRecord, float]]:
        q = embed_text(query, self._dim)
        scored = []
        for rec in live:
            vec = self._rows.get(rec.key)
            if vec is None:
                self.upsert(rec)
                vec = self._rows[rec.key]
            scored.append((rec, cosine(q, vec)))
        scored.sort(key=lambda item: item[1], reverse=True)
        return scored[:k]
