"""Embeddings and sentence offset indexes derived from buffer spans."""

from __future__ import annotations

import re
from functools import lru_cache

from openai import AsyncOpenAI

from .buffer import ContextBuffer
from .models import DeskSpan, SentenceIndex, StaleArtifactError, StampedOffsets

_SENTENCE_RE = re.compile(r"[^.!?\n]+[.!?]*")
_WORD_RE = re.compile(r"\w+|[^\w\s]")


@lru_cache(maxsize=8192)
def count_tokens(text: str) -> int:
    return len(_WORD_RE.findall(text))


class EmbeddingIndex:
    def __init__(self, client: AsyncOpenAI, model: str) -> None:
        self._client = client
        self._model = model
        self._vectors: dict[str, list[float]] = {}

    async def vector_for(self, span: DeskSpan) -> list[float]:
        cached = self._vectors.get(span.span_id)
        if cached is not None:
            return cached
        response = await self._client.embeddings.create(model=self._model, input=span.content)
        vector = list(response.data[0].embedding)
        self._vectors[span.span_id] = vector
        return vector

    def forget(self, span_id: str) -> None:
        self._vectors.pop(span_id, None)


class KeyedEmbeddingIndex:
    def __init__(self, client: AsyncOpenAI, model: str) -> None:
        self._client = client
        self._model = model
        self._vectors: dict[tuple[str, int, str], list[float]] = {}

    async def vector_for(self, span: DeskSpan) -> list[float]:
        key = span.key
        if key not in self._vectors:
            response = await self._client.embeddings.create(model=self._model, input=span.content)
            self._vectors[key] = list(response.data[0].embedding)
        return self._vectors[key]


def build_sentence_index(span: DeskSpan) -> SentenceIndex:
    bounds = [(m.start(), m.end()) for m in _SENTENCE_RE.finditer(span.content)]
    return SentenceIndex(span_id=span.span_id, bounds=bounds)


_sentence_cache: dict[str, SentenceIndex] = {}


def sentence_index(span: DeskSpan) -> SentenceIndex:
    index = _sentence_cache.get(span.span_id)
    if index is None:
        index = build_sentence_index(span)
        _sentence_cache[span.span_id] = index
    return index


def sentence_text(buffer: ContextBuffer, index: SentenceIndex, n: int) -> str:
    span = buffer.get(index.span_id)
    if span is None:
        return ""
    start, end = index.bounds[n]
    return span.content[start:end].strip()


_stamped_cache: dict[tuple[str, int, str], StampedOffsets] = {}


def stamped_offsets(span: DeskSpan) -> StampedOffsets:
    cached = _stamped_cache.get(span.key)
    if cached is None:
        bounds = tuple((m.start(), m.end()) for m in _SENTENCE_RE.finditer(span.content))
        cached = StampedOffsets(span.span_id, span.version, span.content_hash, bounds)
        _stamped_cache[span.key] = cached
    return cached


def stamped_sentence(buffer: ContextBuffer, offsets: StampedOffsets, n: int) -> str:
    span = buffer.get(offsets.span_id)
    if span is None:
        raise StaleArtifactError(f"span {offsets.span_id} is gone")
    if (span.version, span.content_hash) != (offsets.version, offsets.content_hash):
        raise StaleArtifactError(f"offsets for {offsets.span_id} were built at v{offsets.version}")
    start, end = offsets.bounds[n]
    return span.content[start:end].strip()
