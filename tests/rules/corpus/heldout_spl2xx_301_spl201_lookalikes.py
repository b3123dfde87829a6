# rules: SPL201
"""Versioned keys, span stores and unrelated caches: none of these is keyed on a bare span id."""
from __future__ import annotations

import ast
import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import networkx as nx


@dataclass
class Span:
    span_id: str
    content: str
    version: int = 0
    content_hash: str = ""


def tokenize(text: str) -> list[str]:
    return text.split()


class VersionedEmbeddingCache:
    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder
        self._embedding_cache: dict[tuple[str, int, str], list[float]] = {}

    def embed(self, span: Span) -> list[float]:
        key = (span.span_id, span.version, span.content_hash)
        if key not in self._embedding_cache:
            self._embedding_cache[key] = self.embedder.embed(span.content)
        return self._embedding_cache[key]

    def embed_inline(self, span: Span) -> list[float]:
        hit = self._embedding_cache.get((span.span_id, span.version, span.content_hash))
        if hit is None:
            hit = self.embedder.embed(span.content)
            self._embedding_cache[span.span_id, span.version, span.content_hash] = hit
        return hit

    def by_version(self, span: Span) -> Any:
        return self._embedding_cache.get((span.span_id, span.version))

    def by_fstring(self, span: Span, cache: dict[str, Any]) -> Any:
        return cache.setdefault(f"{span.span_id}@{span.version}", tokenize(span.content))

    def invalidate(self, span: Span) -> None:
        self._embedding_cache.pop(span.span_id, None)

    def drop(self, span_id: str, memo: dict[str, Any]) -> None:
        del memo[span_id]


class ContentAddressedCache:
    def __init__(self, model: Any) -> None:
        self.model = model
        self._embedding_cache: dict[str, Any] = {}

    def embed(self, span: Span) -> Any:
        self._embedding_cache[span.content_hash] = self.model.encode(span.content)
        return self._embedding_cache[span.content_hash]

    def embed_by_digest(self, chunk: Any) -> Any:
        key = hashlib.sha256(chunk.text.encode()).hexdigest()
        if key not in self._embedding_cache:
            self._embedding_cache[key] = self.model.encode(chunk.text)
        return self._embedding_cache[key]


class SpanStore:
    def __init__(self) -> None:
        self._spans: dict[str, Span] = {}
        self.docstore: dict[str, Any] = {}
        self._message_store: dict[str, Any] = {}

    def put(self, span: Span) -> None:
        self._spans[span.span_id] = span

    def add_node(self, node: Any) -> None:
        self.docstore[node.node_id] = node

    def add_message(self, msg: Any) -> None:
        self._message_store[msg.message_id] = msg

    def get(self, span_id: str) -> Span | None:
        return self._spans.get(span_id)


SPANS: list[Span] = []
SPAN_INDEX = {s.span_id: s for s in SPANS}


def local_token_map(spans: list[Span]) -> dict[str, list[str]]:
    return {s.span_id: tokenize(s.content) for s in spans}


class TokenCounter:
    def __init__(self) -> None:
        self._token_counts: dict[str, int] = {}
        self._pending: dict[str, Any] = {}

    def count(self, m: Any) -> int:
        self._token_counts[m.id] = len(tokenize(m.content))
        return self._token_counts[m.id]

    def enqueue(self, block_id: str, job: Any) -> None:
        self._pending[block_id] = job


class HttpCache:
    def __init__(self, session: Any) -> None:
        self.session = session
        self._cache: OrderedDict[str, str] = OrderedDict()

    def get(self, url: str) -> str:
        if url in self._cache:
            return self._cache[url]
        response = self.session.get(url)
        self._cache[url] = response.text
        return response.text


class ProfileCache:
    def __init__(self) -> None:
        self._cache: dict[str, Any] = {}

    def profile(self, user_id: str, loader: Any) -> Any:
        return self._cache.setdefault(user_id, loader(user_id))


class RowCache:
    def __init__(self) -> None:
        self._row_cache: dict[int, dict[str, Any]] = {}

    def remember(self, row: Any) -> None:
        self._row_cache[row.id] = row.to_dict()


class NameIndex(ast.NodeVisitor):
    def __init__(self) -> None:
        self._name_index: dict[str, int] = {}

    def visit_Name(self, node: ast.Name) -> None:
        self._name_index[node.id] = node.lineno
        self.generic_visit(node)


class LayoutCache:
    def __init__(self, graph: nx.DiGraph) -> None:
        self.graph = graph
        self._pos_cache: dict[str, tuple[float, float]] = {}

    def position(self, node_id: str) -> tuple[float, float]:
        if node_id not in self._pos_cache:
            self._pos_cache.update(nx.spring_layout(self.graph))
        return self._pos_cache[node_id]


class BlockDeviceCache:
    def __init__(self, disk: Any) -> None:
        self.disk = disk
        self._block_cache: dict[int, bytes] = {}

    def read(self, lba: int) -> bytes:
        if lba not in self._block_cache:
            self._block_cache[lba] = self.disk.read(lba)
        return self._block_cache[lba]


class RegexOffsetsCache:
    def __init__(self) -> None:
        self._offsets_cache: dict[str, list[tuple[int, int]]] = {}

    def find(self, pattern: str, text: str) -> list[tuple[int, int]]:
        key = pattern + "\0" + text
        if key not in self._offsets_cache:
            self._offsets_cache[key] = [m.span() for m in re.finditer(pattern, text)]
        return self._offsets_cache[key]


class TracerRegistry:
    def __init__(self) -> None:
        self._active: dict[int, Any] = {}

    def on_start(self, span: Any) -> None:
        self._active[span.context.span_id] = span


class VersionedIndex:
    def __init__(self, chunks: list[Any]) -> None:
        self._index = {(c.chunk_id, c.content_hash): tokenize(c.text) for c in chunks}
