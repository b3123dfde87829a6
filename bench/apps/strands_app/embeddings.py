"""Embedding index over context messages, used for relevance scoring during compaction."""

from __future__ import annotations

import math
import re
from typing import Callable, Iterable

from strands.types.content import Message

from .buffer import hash_of, text_of, version_of

Vector = list[float]
SpanKey = tuple[str, int, str]
_TOKEN = re.compile(r"[a-z0-9]+")


def hashing_embedder(text: str, dims: int = 256) -> Vector:
    vec = [0.0] * dims
    for tok in _TOKEN.findall(text.lower()):
        vec[hash(tok) % dims] += 1.0
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


def cosine(a: Vector, b: Vector) -> float:
    return sum(x * y for x, y in zip(a, b))


def key_for(message: Message) -> SpanKey:
    return (message["tracking_id"], version_of(message), hash_of(message))


class EmbeddingIndex:
    def __init__(self, embed: Callable[[str], Vector] = hashing_embedder) -> None:
        self._embed = embed
        self._vectors: dict[SpanKey, Vector] = {}

    def vector(self, message: Message) -> Vector:
        key = key_for(message)
        vec = self._vectors.get(key)
        if vec is None:
            vec = self._embed(text_of(message))
            self._vectors[key] = vec
        return vec

    def invalidate(self, tracking_id: str) -> None:
        for key in [k for k in self._vectors if k[0] == tracking_id]:
            del self._vectors[key]

    def rank(self, query: str, messages: Iterable[Message]) -> list[tuple[float, Message]]:
        q = self._embed(query)
        scored = [(cosine(q, self.vector(m)), m) for m in messages if m.get("tracking_id")]
        return sorted(scored, key=lambda pair: pair[0], reverse=True)
