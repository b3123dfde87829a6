"""Span records.

A span is a plain dict::

    {"id": "s-1f3a9c0e7b21", "kind": "tool", "role": "tool", "text": "...",
     "rev": 0, "sha": "<sha256 of text>", "parent": None, "sources": [],
     "dead": False, "created": 1718000000.0, "updated": None, "by": "ingest"}

``rev`` goes up on every change of ``text`` and ``sha`` is always the digest of the
current ``text``; anything derived from a span should remember both.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from typing import Any, Iterable

Span = dict[str, Any]

KINDS = ("system", "user", "assistant", "tool", "summary", "note")


def sha_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_id(prefix: str = "s") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def make_span(
    text: str,
    kind: str = "note",
    role: str | None = None,
    sources: Iterable[str] | None = None,
    parent: str | None = None,
    sid: str | None = None,
) -> Span:
    if kind not in KINDS:
        raise ValueError(f"unknown span kind {kind!r}")
    return {
        "id": sid or new_id(),
        "kind": kind,
        "role": role or ("assistant" if kind == "summary" else "user"),
        "text": text,
        "rev": 0,
        "sha": sha_of(text),
        "parent": parent,
        "sources": list(sources or ()),
        "dead": False,
        "created": time.time(),
        "updated": None,
        "by": "ingest",
    }


def set_text(span: Span, text: str, by: str) -> Span:
    span["text"] = text
    span["rev"] = span.get("rev", 0) + 1
    span["sha"] = sha_of(text)
    span["by"] = by
    span["updated"] = time.time()
    return span


def fork(span: Span, text: str, by: str) -> Span:
    child = make_span(
        text,
        kind=span["kind"],
        role=span["role"],
        sources=[span["id"]],
        parent=span["id"],
    )
    child["rev"] = span.get("rev", 0) + 1
    child["by"] = by
    span["dead"] = True
    span["dead_at"] = time.time()
    span["successor"] = child["id"]
    return child


def fingerprint(span: Span) -> tuple[str, int, str]:
    return (span["id"], span.get("rev", 0), span.get("sha") or sha_of(span["text"]))


def is_live(span: Span) -> bool:
    return not span.get("dead", False)
