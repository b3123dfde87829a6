"""Small text helpers shared by the store, operators and indexes."""

from __future__ import annotations

import hashlib
import re

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_WS = re.compile(r"\s+")


def content_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sentence_bounds(text: str) -> tuple[tuple[int, int], ...]:
    """Character (start, end) pairs for each sentence of ``text``."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        bounds.append((start, match.start()))
        start = match.end()
    if start < len(text):
        bounds.append((start, len(text)))
    return tuple(bounds)


def normalize_ws(text: str) -> str:
    return _WS.sub(" ", text).strip()


def word_count(text: str) -> int:
    return len(text.split())
