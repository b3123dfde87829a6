"""Thin wrapper over ``InMemoryVectorStore`` that keeps chunk bookkeeping."""

from __future__ import annotations

import time
from typing import Iterable, Sequence

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import InMemoryVectorStore

from .records import HASH_KEY, VERSION_KEY, content_hash, revise


class ChunkIndex:
    def __init__(self, embeddings: Embeddings) -> None:
        self.vs = InMemoryVectorStore(embedding=embeddings)
        self.tombstones: dict[str, float] = {}

    def add(self, chunks: Sequence[Document]) -> list[str]:
        return self.vs.add_documents(list(chunks), ids=[c.id for c in chunks])

    def get(self, chunk_id: str) -> Document | None:
        found = self.vs.get_by_ids([chunk_id])
        return found[0] if found else None

    def ids(self) -> list[str]:
        return list(self.vs.store.keys())

    def live_ids(self) -> list[str]:
        return [i for i in self.vs.store if i not in self.tombstones]

    def search(self, query: str, k: int = 4) -> list[Document]:
        return [
            d for d in self.vs.similarity_search(query, k=k + len(self.tombstones))
            if d.id not in self.tombstones
        ][:k]

    def patch_text(self, chunk_id: str, new_text: str) -> None:
        """Apply an inline edit from the review console."""
        entry = self.vs.store[chunk_id]
        entry["text"] = new_text
        entry["metadata"][VERSION_KEY] = int(entry["metadata"].get(VERSION_KEY, 0)) + 1
        entry["metadata"][HASH_KEY] = content_hash(new_text)
        entry["metadata"]["char_len"] = len(new_text)

    def replace_text(self, chunk_id: str, new_text: str) -> str:
        """Re-embed a reviewed chunk under the same id."""
        current = self.get(chunk_id)
        if current is None:
            raise KeyError(chunk_id)
        meta = {k: v for k, v in current.metadata.items() if k != "start_index"}
        meta[VERSION_KEY] = int(meta.get(VERSION_KEY, 0)) + 1
        meta[HASH_KEY] = content_hash(new_text)
        meta["char_len"] = len(new_text)
        updated = Document(id=chunk_id, page_content=new_text, metadata=meta)
        self.vs.add_documents([updated], ids=[chunk_id])
        return chunk_id

    def fork(self, chunk_id: str, new_text: str, op: str) -> Document:
        """Index a rewritten copy and tombstone the original."""
        current = self.get(chunk_id)
        if current is None:
            raise KeyError(chunk_id)
        derived = revise(current, new_text, op=op)
        self.vs.add_documents([derived], ids=[derived.id])
        self.tombstones[chunk_id] = time.time()
        return derived

    def tombstone(self, chunk_ids: Iterable[str]) -> None:
        now = time.time()
        for cid in chunk_ids:
            self.tombstones.setdefault(cid, now)

    def hard_delete(self, chunk_ids: Sequence[str]) -> None:
        self.vs.delete(ids=list(chunk_ids))
        for cid in chunk_ids:
            self.tombstones.pop(cid, None)
