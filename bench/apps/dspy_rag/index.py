"""Embedding indexes over the passage store."""

from __future__ import annotations

import numpy as np

import dspy
from dspy.retrievers import Embeddings

from .models import SpanKey, WorkingNote
from .store import PassageStore


class PassageIndex:
    """Top-k retrieval with ``dspy.retrievers.Embeddings`` plus a per-passage vector cache."""

    def __init__(self, store: PassageStore, embedder: dspy.Embedder, k: int = 5) -> None:
        self.store = store
        self.embedder = embedder
        self.k = k
        self._vectors: dict[SpanKey, np.ndarray] = {}
        self._retriever: Embeddings | None = None
        self._pids: list[str] = []
        store.subscribe(self.on_passage_changed)

    def on_passage_changed(self, pid: str, version: int) -> None:
        stale = [key for key in self._vectors if key.pid == pid and (version < 0 or key.version < version)]
        for key in stale:
            del self._vectors[key]
        self._retriever = None

    def rebuild(self) -> None:
        passages = list(self.store)
        self._pids = [p.pid for p in passages]
        self._retriever = Embeddings(corpus=[p.text for p in passages], embedder=self.embedder, k=self.k)

    def search(self, query: str) -> list[dspy.Example]:
        if self._retriever is None:
            self.rebuild()
        prediction = self._retriever(query)
        return [self.store.get(self._pids[i]) for i in prediction.indices if self._pids[i] in self.store]

    def vector_for(self, passage: dspy.Example) -> np.ndarray:
        key = SpanKey.of(passage)
        vector = self._vectors.get(key)
        if vector is None:
            vector = np.asarray(self.embedder(passage.text), dtype=np.float32)
            self._vectors[key] = vector
        return vector


class PassageVectorCache:
    """Vectors used by the reranker; shared across requests."""

    def __init__(self, embedder: dspy.Embedder) -> None:
        self._embedder = embedder
        self._by_pid: dict[str, np.ndarray] = {}

    def get(self, passage: dspy.Example) -> np.ndarray:
        cached = self._by_pid.get(passage.pid)
        if cached is None:
            cached = np.asarray(self._embedder(passage.text), dtype=np.float32)
            self._by_pid[passage.pid] = cached
        return cached

    def rerank(self, query: str, passages: list[dspy.Example]) -> list[dspy.Example]:
        q = np.asarray(self._embedder(query), dtype=np.float32)
        scored = []
        for passage in passages:
            v = self.get(passage)
            scored.append((float(q @ v / (np.linalg.norm(q) * np.linalg.norm(v) + 1e-9)), passage))
        scored.sort(key=lambda pair: pair[0], reverse=True)
        return [p for _, p in scored]


def embed_note(note: WorkingNote, embedder: dspy.Embedder) -> WorkingNote:
    note.embedding = np.asarray(embedder(note.text), dtype=np.float32).tolist()
    return note
