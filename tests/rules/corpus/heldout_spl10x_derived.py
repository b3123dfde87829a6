# rules: SPL101, SPL102, SPL103, SPL104
"""Held-out: spans that carry fields derived from their content (SPL104)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from pydantic import BaseModel


@dataclass
class DocChunk:
    chunk_id: str
    text: str
    version: int = 0
    embedding: Optional[list[float]] = None
    token_count: int = 0


class IndexNode(BaseModel):
    id_: str
    text: str
    embedding: Optional[list[float]] = None
    start_char_idx: Optional[int] = None
    end_char_idx: Optional[int] = None


@dataclass
class VectorRecord:
    id: str
    content: str
    vector: list[float] = field(default_factory=list)
    revision: int = 0


def rewrite_chunk(chunk: DocChunk, text: str) -> None:
    chunk.text = text  # expect: SPL104
    chunk.version += 1


def rewrite_chunk_reset(chunk: DocChunk, text: str) -> None:
    chunk.text = text
    chunk.version += 1
    chunk.embedding = None
    chunk.token_count = len(text.split())


def rewrite_chunk_nothing(chunk: DocChunk, text: str) -> None:
    chunk.text = text  # expect: SPL101, SPL104


def rewrite_chunk_reembed(chunk: DocChunk, text: str, embed) -> None:
    chunk.text = text
    chunk.version += 1
    chunk.embedding = embed(text)
    chunk.token_count = 0


def rewrite_chunks(chunks: list[DocChunk], fix) -> None:
    for chunk in chunks:
        chunk.text = fix(chunk.text)  # expect: SPL104
        chunk.version += 1


def tombstone_chunk(chunk: DocChunk) -> None:
    chunk.text = "[pruned]"
    chunk.version += 1


def new_chunk(cid: str, text: str) -> DocChunk:
    chunk = DocChunk(chunk_id=cid, text="")
    chunk.text = text
    return chunk


def strip_node(node: IndexNode) -> None:
    node.text = node.text.strip()  # expect: SPL104


def strip_node_reset(node: IndexNode) -> None:
    node.text = node.text.strip()  # expect: SPL103
    node.embedding = None
    node.start_char_idx = None
    node.end_char_idx = None


def strip_nodes(nodes: list[IndexNode]) -> None:
    for node in nodes:
        node.text = node.text.strip()  # expect: SPL104


def setattr_node(node: IndexNode, text: str) -> None:
    setattr(node, "text", text)  # expect: SPL104


def rewrite_record(record: VectorRecord, text: str) -> None:
    record.content = text  # expect: SPL104
    record.revision += 1


def rewrite_record_reembed(record: VectorRecord, text: str, embed) -> None:
    record.content = text
    record.revision += 1
    record.vector = embed(text)


def rewrite_records(records: dict[str, VectorRecord], rid: str, text: str) -> None:
    record = records[rid]
    record.content = text  # expect: SPL101, SPL104


class DocChunkStore:
    def __init__(self) -> None:
        self._chunks: dict[str, DocChunk] = {}

    def redact(self, cid: str, secret: str) -> None:
        chunk = self._chunks[cid]
        chunk.text = chunk.text.replace(secret, "█" * len(secret))  # expect: SPL104
        chunk.version += 1

    def redact_and_invalidate(self, cid: str, secret: str) -> None:
        chunk = self._chunks[cid]
        chunk.text = chunk.text.replace(secret, "█" * len(secret))
        chunk.version += 1
        chunk.embedding = None
        chunk.token_count = 0

    def read(self, cid: str) -> str:
        return self._chunks[cid].text


async def summarize_nodes(nodes: list[IndexNode], llm) -> None:
    for node in nodes:
        node.text = await llm.acomplete(node.text)  # expect: SPL104
