from __future__ import annotations

from typing import Awaitable, Callable, Generic, TypeVar

from .records import MemoryRecord

K = TypeVar("K")
V = TypeVar("V")

Embedder = Callable[[str], Awaitable[list[float]]]


class Cache(Generic[K, V]):
    def __init__(self) -> None:
        self._d: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        return self._d.get(key)

    def put(self, key: K, value: V) -> None:
        self._d[key] = value


class EmbeddingIndex:
    def __init__(self, embed: Embedder) -> None:
        self._embed = embed
        self._vectors: Cache[str, list[float]] = Cache()

    async def vector_for(self, mem: MemoryRecord) -> list[float]:
        key = mem["id"]
        hit = self._vectors.get(key)
        if hit is not None:
            return hit
        vec = await self._embed(mem["text"])
        self._vectors.put(key, vec)
        return vec


class VersionedEmbeddingIndex:
    def __init__(self, embed: Embedder) -> None:
        self._embed = embed
        self._vectors: Cache[tuple[str, int, str], list[float]] = Cache()

    async def vector_for(self, mem: MemoryRecord) -> list[float]:
        key = (mem["id"], mem["version"], mem["digest"])
        hit = self._vectors.get(key)
        if hit is None:
            hit = await self._embed(mem["text"])
            self._vectors.put(key, hit)
        return hit
