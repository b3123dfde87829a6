# rules: SPL201
"""Embedding, token and citation caches in agent memory code keyed on span ids."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any


def tokenize(text: str) -> list[str]:
    return text.split()


def compute_offsets(text: str) -> list[tuple[int, int]]:
    out, pos = [], 0
    for word in text.split():
        start = text.index(word, pos)
        out.append((start, start + len(word)))
        pos = start + len(word)
    return out


@dataclass
class Span:
    span_id: str
    content: str
    version: int = 0
    content_hash: str = ""


@dataclass
class Fragment:
    id: str
    text: str


class EmbeddingMemory:
    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder
        self._embedding_cache: dict[str, list[float]] = {}
        self._token_cache: dict[str, list[str]] = {}
        self.offsets: dict[str, list[tuple[int, int]]] = {}

    def embed(self, span: Span) -> list[float]:
        cached = self._embedding_cache.get(span.span_id)  # expect: SPL201
        if cached is not None:
            return cached
        vector = self.embedder.embed(span.content)
        self._embedding_cache[span.span_id] = vector  # expect: SPL201
        return vector

    def tokens(self, chunk: Any) -> list[str]:
        return self._token_cache.setdefault(chunk.chunk_id, tokenize(chunk.text))  # expect: SPL201

    def index_message(self, msg: Any) -> None:
        self.offsets[msg.message_id] = compute_offsets(msg.content)  # expect: SPL201

    def add_fragment(self, frag: Fragment) -> None:
        self._token_cache[frag.id] = tokenize(frag.text)  # expect: SPL201

    def embed_aliased(self, span: Span) -> None:
        sid = span.span_id
        vec = self.embedder.embed(span.content)
        self._embedding_cache[sid] = vec  # expect: SPL201


_EMBEDDINGS: dict[str, list[float]] = {}


def remember_node(node: Any, model: Any) -> None:
    vec = model.encode(node.get_content())
    _EMBEDDINGS[node.node_id] = vec  # expect: SPL201


def lookup_message_embedding(message: Any) -> list[float]:
    return _EMBEDDINGS[message.id]  # expect: SPL201


class TokenIndex:
    def __init__(self, spans: list[Span]) -> None:
        self._index = {s.span_id: tokenize(s.content) for s in spans}  # expect: SPL201


class CitationRenderer:
    def __init__(self) -> None:
        self.citations: dict[str, str] = {}

    def render(self, passage: Any) -> str:
        if passage.id not in self.citations:
            self.citations[passage.id] = f"[{passage.source}] {passage.text[:80]}"  # expect: SPL201
        return self.citations[passage.id]  # expect: SPL201


class VectorStoreWriter:
    def __init__(self, client: Any) -> None:
        self.client = client
        self.vector_store: dict[str, list[float]] = {}

    async def upsert(self, node: Any) -> None:
        vec = await self.client.aembed(node.text)
        self.vector_store[node.node_id] = vec  # expect: SPL201


class PostprocessorCache:
    def __init__(self) -> None:
        self._offsets_cache: dict[str, list[tuple[int, int]]] = {}

    def postprocess(self, nodes: list[Any]) -> list[Any]:
        for n in nodes:
            self._offsets_cache[n.node.node_id] = compute_offsets(n.node.text)  # expect: SPL201
        return nodes


class TurnSummaryMemo:
    def __init__(self, llm: Any) -> None:
        self.llm = llm
        self._memo: dict[str, str] = {}

    def gist(self, turn: Any) -> str:
        if (hit := self._memo.get(turn.id)) is not None:  # expect: SPL201
            return hit
        gist = self.llm.complete(f"One line: {turn.content}")
        self._memo[turn.id] = gist  # expect: SPL201
        return gist


class ChunkVectorCache:
    def __init__(self, model: Any) -> None:
        self.model = model
        self._vector_cache: dict[str, Any] = {}

    def vector(self, chunk: Any) -> Any:
        try:
            return self._vector_cache[chunk.chunk_id]  # expect: SPL201
        except KeyError:
            vec = self.model.encode(chunk.text)
            self._vector_cache[chunk.chunk_id] = vec  # expect: SPL201
            return vec
        finally:
            self.model.flush()


class BlockTokenCounter:
    def __init__(self) -> None:
        self._token_cache: dict[str, int] = {}

    def count(self, block: Any, exact: bool) -> int:
        if exact:
            return len(tokenize(block.value))
        elif block.block_id in self._token_cache:
            return self._token_cache[block.block_id]  # expect: SPL201
        n = len(tokenize(block.value))
        self._token_cache[block.block_id] = n  # expect: SPL201
        return n


class EventDrivenEmbedder:
    def __init__(self, embed: Any) -> None:
        self.embed = embed
        self._embedding_cache: dict[str, Any] = {}

    def handle(self, event: dict[str, Any]) -> None:
        match event:
            case {"type": "embed", "span": span}:
                self._embedding_cache[span.span_id] = self.embed(span.content)  # expect: SPL201
            case _:
                pass


class NodeEmbeddings:
    def __init__(self, model: Any, nodes: list[Any]) -> None:
        self.embeddings = {n.node_id: model.embed(n.get_content()) for n in nodes}  # expect: SPL201


class BufferIndexer:
    def __init__(self) -> None:
        self.spans: list[Span] = []
        self._token_index: dict[str, list[str]] = {}

    def reindex(self) -> None:
        for item in self.spans:
            self._token_index[item.span_id] = tokenize(item.content)  # expect: SPL201


class EntryEmbeddingStore:
    def __init__(self, embed: Any) -> None:
        self.embed = embed
        self.embedding_store: dict[str, Any] = {}

    async def warm(self, entries: list[Any]) -> None:
        vectors = await asyncio.gather(*(self.embed(e.content) for e in entries))
        for entry, vec in zip(entries, vectors):
            self.embedding_store[entry.id] = vec  # expect: SPL201


def segment_token_counts(segments: list[Any], cache: dict[str, int]) -> list[int]:
    counts = []
    for segment in segments:
        if segment.id not in cache:
            cache[segment.id] = len(tokenize(segment.text))  # expect: SPL201
        counts.append(cache[segment.id])  # expect: SPL201
    return counts
