# rules: SPL201
"""Memoized helpers (functools / cachetools) that identify a span by id or by content."""
from __future__ import annotations

import functools
from functools import cache, lru_cache
from typing import Any

from cachetools import TTLCache, cached

SPAN_STORE: dict[str, Any] = {}
NODES: dict[str, Any] = {}
BLOCKS: dict[str, Any] = {}
MESSAGES: dict[str, Any] = {}
MODEL: Any = None


@lru_cache(maxsize=1024)
def embed_span(span_id: str) -> list[float]:  # expect: SPL201
    span = SPAN_STORE[span_id]
    return MODEL.encode(span.content)


@functools.cache
def token_count_for(node_id: str) -> int:  # expect: SPL201
    return len(NODES[node_id].text.split())


@cached(cache=TTLCache(maxsize=256, ttl=600))
def block_digest_text(block_id: str) -> str:  # expect: SPL201
    return BLOCKS[block_id].value.strip().lower()


@lru_cache
def message_offsets(message_id: str) -> list[int]:  # expect: SPL201
    msg = MESSAGES[message_id]
    return [i for i, ch in enumerate(msg.content) if ch == "\n"]


@cache
def chunk_tokens(chunk_id: str) -> tuple[str, ...]:  # expect: SPL201
    return tuple(NODES[chunk_id].text.split())


# --- fine -----------------------------------------------------------------


@lru_cache(maxsize=4096)
def embed_text(text: str) -> list[float]:
    return MODEL.encode(text)


@lru_cache(maxsize=4096)
def embed_versioned(span_id: str, version: int, content_hash: str) -> list[float]:
    return MODEL.encode(SPAN_STORE[span_id].content)


@lru_cache
def get_span(span_id: str) -> Any:
    return SPAN_STORE[span_id]


@functools.lru_cache(maxsize=None)
def parent_of(node_id: str) -> str | None:
    return NODES[node_id].parent_id


@cache
def fibonacci(n: int) -> int:
    return n if n < 2 else fibonacci(n - 1) + fibonacci(n - 2)


@lru_cache(maxsize=128)
def load_config(path: str) -> dict[str, Any]:
    with open(path) as fh:
        return {"raw": fh.read()}


@cached(cache=TTLCache(maxsize=64, ttl=30))
def fetch_user(user_id: str) -> dict[str, Any]:
    return {"id": user_id}


@lru_cache
def count_tokens(content_hash: str, text: str) -> int:
    return len(text.split())
