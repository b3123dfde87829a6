# rules: SPL201
"""An in-memory vector store in the style of agent frameworks."""
from __future__ import annotations

import asyncio


class SimpleVectorStore:
    def __init__(self) -> None:
        self.embedding_dict: dict[str, list[float]] = {}
        self.node_store: dict[str, object] = {}
        self.metadata_index: dict[str, dict] = {}

    def add(self, nodes) -> list[str]:
        for node in nodes:
            self.embedding_dict[node.node_id] = node.get_embedding()  # expect: SPL201
            self.node_store[node.node_id] = node
            self.metadata_index[node.node_id] = dict(node.metadata)
        return [n.node_id for n in nodes]

    def delete(self, node_id: str) -> None:
        self.embedding_dict.pop(node_id, None)
        del self.node_store[node_id]

    def query(self, query_vector, top_k: int = 4):
        scored = [(cosine(query_vector, vec), nid) for nid, vec in self.embedding_dict.items()]
        return sorted(scored, reverse=True)[:top_k]


class AsyncEmbeddingCache:
    def __init__(self, client) -> None:
        self.client = client
        self._cache: dict[str, list[float]] = {}
        self._lock = asyncio.Lock()

    async def embed(self, block) -> list[float]:
        async with self._lock:
            if block.block_id in self._cache:
                return self._cache[block.block_id]  # expect: SPL201
            vector = await self.client.embed(block.value)
            self._cache[block.block_id] = vector  # expect: SPL201
            return vector

    async def embed_versioned(self, block) -> list[float]:
        key = (block.block_id, block.version)
        if key not in self._cache:
            self._cache[key] = await self.client.embed(block.value)
        return self._cache[key]


def cosine(a, b):
    return sum(x * y for x, y in zip(a, b))
