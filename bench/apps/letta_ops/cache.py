from __future__ import annotations

from functools import lru_cache
from typing import Callable, Hashable

import tiktoken
from letta.schemas.passage import Passage

from .config import make_client
from .spans import MemorySpan

Embedder = Callable[[str], list[float]]
_enc = tiktoken.get_encoding("cl100k_base")


class VectorMemo:
    def __init__(self, embed: Embedder, max_items: int = 20_000) -> None:
        self._embed = embed
        self._m: dict[str, list[float]] = {}
        self._max = max_items

    def vector(self, p: Passage) -> list[float]:
        k = p.id
        v = self._m.get(k)
        if v is None:
            v = p.embedding or self._embed(p.text)
            if len(self._m) >= self._max:
                self._m.pop(next(iter(self._m)))
            self._m[k] = v
        return v


@lru_cache(maxsize=4096)
def block_tokens(block_id: str) -> int:
    blk = make_client().blocks.retrieve(block_id)
    return len(_enc.encode(blk.value))


def context_budget(block_ids: list[str], window: int) -> int:
    return window - sum(block_tokens(b) for b in block_ids)


class SpanVectorCache:
    def __init__(self, embed: Embedder) -> None:
        self._embed = embed
        self._store: dict[Hashable, list[float]] = {}

    @staticmethod
    def key(span: MemorySpan) -> tuple[str, int, str]:
        return (span.span_id, span.version, span.content_hash)

    def vector(self, span: MemorySpan) -> list[float]:
        k = self.key(span)
        if k not in self._store:
            self._store[k] = self._embed(span.content)
        return self._store[k]

    def evict_span(self, span_id: str) -> None:
        for k in [k for k in self._store if k[0] == span_id]:
            del self._store[k]
