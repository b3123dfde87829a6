# rules: SPL101, SPL102, SPL103, SPL104
"""Held-out look-alikes: caches, queues, storage blocks, logging, tracing spans, ORM rows."""

from __future__ import annotations

import logging
import re
import time
import zlib
from collections import OrderedDict
from dataclasses import dataclass

from opentelemetry import trace
from sqlalchemy import Column, Integer, String, Text
from sqlalchemy.orm import declarative_base

Base = declarative_base()
tracer = trace.get_tracer(__name__)


@dataclass
class _Entry:
    value: object
    expires_at: float


class TTLCache:
    def __init__(self, ttl: float) -> None:
        self._data: dict[str, _Entry] = {}
        self.ttl = ttl

    def set(self, key: str, value: object) -> None:
        entry = self._data.get(key)
        if entry is not None:
            entry.value = value
            entry.expires_at = time.monotonic() + self.ttl
        else:
            self._data[key] = _Entry(value, time.monotonic() + self.ttl)


@dataclass
class CacheEntry:
    url: str
    body: bytes
    etag: str
    expires: float


class HttpCache:
    def __init__(self) -> None:
        self._entries: OrderedDict[str, CacheEntry] = OrderedDict()

    def compress_all(self) -> None:
        for entry in self._entries.values():
            entry.body = zlib.compress(entry.body)

    def refresh(self, url: str, body: bytes, etag: str) -> None:
        entry = self._entries[url]
        entry.body = body
        entry.etag = etag


class _Node:
    __slots__ = ("value", "next")

    def __init__(self, value: object, next: "_Node | None" = None) -> None:
        self.value = value
        self.next = next


class LinkedStack:
    def __init__(self) -> None:
        self._head: _Node | None = None

    def replace_top(self, value: object) -> None:
        node = self._head
        if node is not None:
            node.value = value


@dataclass
class StorageBlock:
    block_id: int
    data: bytes
    checksum: int


def compress_block(block: StorageBlock) -> None:
    block.data = zlib.compress(block.data)
    block.checksum = zlib.crc32(block.data)


class RedactFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = re.sub(r"\d{16}", "<card>", str(record.msg))
        return True


def traced_call(prompt: str) -> str:
    with tracer.start_as_current_span("llm.call") as span:
        span.set_attribute("prompt.length", len(prompt))
        span.update_name("llm.call.done")
        return prompt


class Comment(Base):
    __tablename__ = "comments"
    id = Column(Integer, primary_key=True)
    author = Column(String(64))
    body = Column(Text)


def moderate(comment: Comment, banned: list[str]) -> None:
    for word in banned:
        comment.body = comment.body.replace(word, "***")


def match_offsets(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in pattern.finditer(text)]


class Graph:
    def __init__(self) -> None:
        self.nodes: dict[str, dict] = {}

    def relabel(self, node_id: str, label: str) -> None:
        self.nodes[node_id]["label"] = label
