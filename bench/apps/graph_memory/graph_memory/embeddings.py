"""Embedding caches for conversation messages and stored memories."""

from typing import Sequence

from langchain_core.embeddings import Embeddings
from langchain_core.messages import BaseMessage
from langgraph.store.base import BaseStore, Item

from graph_memory.settings import scoped_ns
from graph_memory.textutil import as_text

VectorKey = tuple[str, int, str]


class MessageVectorCache:
    """Per-process cache so re-ranking a thread does not re-embed every turn."""

    def __init__(self, embedder: Embeddings) -> None:
        self._embedder = embedder
        self._vectors: dict[str, list[float]] = {}

    async def vectors_for(self, messages: Sequence[BaseMessage]) -> list[list[float]]:
        missing = [m for m in messages if m.id and m.id not in self._vectors]
        if missing:
            fresh = await self._embedder.aembed_documents([as_text(m.content) for m in missing])
            self._vectors.update({m.id: vec for m, vec in zip(missing, fresh)})
        return [self._vectors[m.id] for m in messages if m.id in self._vectors]


class MemoryVectorIndex:
    def __init__(self, embedder: Embeddings) -> None:
        self._embedder = embedder
        self._vectors: dict[VectorKey, list[float]] = {}

    @staticmethod
    def key_for(item: Item) -> VectorKey:
        return (item.key, int(item.value["version"]), item.value["content_hash"])

    async def vector(self, item: Item) -> list[float]:
        vkey = self.key_for(item)
        if vkey not in self._vectors:
            self._vectors[vkey] = await self._embedder.aembed_query(item.value["content"])
        return self._vectors[vkey]


async def share_message_vectors(store: BaseStore, thread_id: str, messages: Sequence[BaseMessage],
                                vectors: Sequence[list[float]]) -> None:
    """Publish message vectors so the reflection worker can reuse them."""
    ns = scoped_ns("vectors", thread_id)
    for msg, vec in zip(messages, vectors):
        if msg.id:
            await store.aput(ns, msg.id, {"vector": list(vec), "type": msg.type}, index=False)


async def share_memory_vector(store: BaseStore, user_id: str, item: Item, vector: list[float]) -> str:
    vkey = "{}:{}:{}".format(item.key, item.value["version"], item.value["content_hash"][:16])
    await store.aput(scoped_ns("vectors", user_id), vkey, {"vector": vector, "memory_key": item.key}, index=False)
    return vkey
