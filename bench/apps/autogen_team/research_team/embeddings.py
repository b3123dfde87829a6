"""Embedding cache and a tiny vector index over research notes."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from .notes import NoteStore, ResearchNote

Embedder = Callable[[str], List[float]]


def hashing_embedder(dim: int = 64) -> Embedder:
    def embed(text: str) -> List[float]:
        vec = [0.0] * dim
        for word in text.lower().split():
            vec[hash(word) % dim] += 1.0
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        return [v / norm for v in vec]

    return embed


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


class EmbeddingCache:
    """Memoizes embeddings so re-ranking a long session stays cheap."""

    def __init__(self, embedder: Embedder) -> None:
        self._embed = embedder
        self._by_note: Dict[str, List[float]] = {}
        self._by_content: Dict[Tuple[str, int, str], List[float]] = {}

    def vector_for(self, note: ResearchNote) -> List[float]:
        cached = self._by_note.get(note.note_id)
        if cached is None:
            cached = self._embed(note.text)
            self._by_note[note.note_id] = cached
        return cached

    def vector_for_current(self, note: ResearchNote) -> List[float]:
        key = (note.note_id, note.version, note.content_hash)
        vec = self._by_content.get(key)
        if vec is None:
            vec = self._embed(note.text)
            self._by_content[key] = vec
        return vec

    def evict(self, note_id: str) -> None:
        self._by_note.pop(note_id, None)
        for key in [k for k in self._by_content if k[0] == note_id]:
            del self._by_content[key]


@dataclass
class IndexEntry:
    note_id: str
    vector: List[float]
    version: int = 0
    content_hash: str = ""


class NoteIndex:
    def __init__(self, store: NoteStore, cache: EmbeddingCache) -> None:
        self._store = store
        self._cache = cache
        self._entries: Dict[str, IndexEntry] = {}

    def index_all(self) -> int:
        for note in self._store.live():
            self._entries[note.note_id] = IndexEntry(note.note_id, self._cache.vector_for(note))
        return len(self._entries)

    def index_note(self, note: ResearchNote) -> IndexEntry:
        entry = IndexEntry(
            note_id=note.note_id,
            vector=self._cache.vector_for_current(note),
            version=note.version,
            content_hash=note.content_hash,
        )
        self._entries[note.note_id] = entry
        return entry

    def search(self, query_vec: Sequence[float], k: int = 5) -> List[Tuple[ResearchNote, float]]:
        scored: List[Tuple[ResearchNote, float]] = []
        for entry in self._entries.values():
            note = self._store.get(entry.note_id)
            if note is None or not note.alive:
                continue
            if entry.content_hash and (entry.version, entry.content_hash) != (note.version, note.content_hash):
                entry = self.index_note(note)
            scored.append((note, cosine(query_vec, entry.vector)))
        scored.sort(key=lambda pair: pair[1], reverse=True)
        return scored[:k]

    def entry(self, note_id: str) -> Optional[IndexEntry]:
        return self._entries.get(note_id)
