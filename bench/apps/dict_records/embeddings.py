"""Chunking, embedding and a small in-memory vector index for retrieval over spans."""

from __future__ import annotations

import math
import re
from typing import Callable, Sequence

from . import records
from .records import Span

Vector = list[float]
EmbedFn = Callable[[str], Vector]

BOILERPLATE = re.compile(
    r"(?im)^(?:\s*(?:INFO|DEBUG)\b.*|\s*Downloading .*|\s*\d{1,3}% \|.*\|.*)$\n?"
)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def chunk_span(span: Span, size: int = 800, overlap: int = 120) -> list[dict]:
    text = span["text"]
    out: list[dict] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + size)
        out.append(
            {
                "id": f"{span['id']}#{len(out)}",
                "span": span["id"],
                "start": start,
                "end": end,
                "text": text[start:end],
            }
        )
        if end == len(text):
            break
        start = end - overlap
    return out


class VectorCache:
    def __init__(self, embed: EmbedFn, max_items: int = 50_000):
        self._embed = embed
        self._max = max_items
        self._vecs: dict[tuple[str, int, str], Vector] = {}

    def vector(self, span: Span) -> Vector:
        key = records.fingerprint(span)
        vec = self._vecs.get(key)
        if vec is None:
            vec = self._embed(span["text"])
            self._vecs[key] = vec
            if len(self._vecs) > self._max:
                self._vecs.pop(next(iter(self._vecs)))
        return vec


class ChunkIndex:
    def __init__(self, embed: EmbedFn):
        self.embed = embed
        self.chunks: dict[str, dict] = {}

    def index_span(self, span: Span) -> int:
        pieces = chunk_span(span)
        for c in pieces:
            c["vec"] = self.embed(c["text"])
            self.chunks[c["id"]] = c
        return len(pieces)

    def scrub(self) -> int:
        n = 0
        for c in self.chunks.values():
            cleaned = BOILERPLATE.sub("", c["text"]).strip()
            if cleaned and cleaned != c["text"]:
                c["text"] = cleaned
                n += 1
        return n

    def retext(self, chunk_id: str, text: str) -> dict:
        c = self.chunks[chunk_id]
        c["text"] = text
        c["vec"] = self.embed(text)
        c.pop("score", None)
        return c

    def search(self, query: str, k: int = 5) -> list[dict]:
        q = self.embed(query)
        scored = sorted(
            self.chunks.values(), key=lambda c: cosine(q, c["vec"]), reverse=True
        )
        return scored[:k]

    def context_for(self, store, chunk: dict, pad: int = 200) -> str:
        src = store.get(chunk["span"])
        if src is None:
            return chunk["text"]
        lo = max(0, chunk["start"] - pad)
        return src["text"][lo:chunk["end"] + pad]
