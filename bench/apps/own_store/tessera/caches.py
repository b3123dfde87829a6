"""Embedding and token-count caches in front of the embedding service and the tokenizer."""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Optional, Sequence

from tessera.records import Span, SpanKey

EmbedFn = Callable[[str], Sequence[float]]
TokenizeFn = Callable[[str], list[int]]


class EmbeddingCache:
    def __init__(self, embed: EmbedFn, capacity: int = 2_048) -> None:
        self._embed = embed
        self._capacity = capacity
        self._lru: OrderedDict[str, list[float]] = OrderedDict()

    def get_or_embed(self, span: Span) -> list[float]:
        sid = span.span_id
        hit = self._lru.get(sid)
        if hit is not None:
            self._lru.move_to_end(sid)
            return hit
        vec = list(self._embed(span.content))
        self._lru[sid] = vec
        if len(self._lru) > self._capacity:
            self._lru.popitem(last=False)
        return vec

    def evict(self, span_id: str) -> None:
        self._lru.pop(span_id, None)


class VectorCache:
    def __init__(self, embed: EmbedFn, capacity: int = 2_048) -> None:
        self._embed = embed
        self._capacity = capacity
        self._lru: OrderedDict[SpanKey, list[float]] = OrderedDict()

    def get(self, span: Span) -> Optional[list[float]]:
        return self._lru.get(span.key())

    def get_or_embed(self, span: Span) -> list[float]:
        k = span.key()
        hit = self._lru.get(k)
        if hit is not None:
            self._lru.move_to_end(k)
            return hit
        vec = list(self._embed(span.content))
        self._lru[k] = vec
        if len(self._lru) > self._capacity:
            self._lru.popitem(last=False)
        return vec


def make_token_counter(tokenize: TokenizeFn) -> Callable[[Span], int]:
    seen: dict[SpanKey, int] = {}

    def count(span: Span) -> int:
        k = span.key()
        n = seen.get(k)
        if n is None:
            n = seen[k] = len(tokenize(span.content))
        return n

    return count
