"""Identity and versioning helpers for documents and chat messages."""

from __future__ import annotations

import hashlib
import time
import uuid
from dataclasses import dataclass

from haystack import Document
from haystack.dataclasses import ChatMessage

VERSION_KEY = "span_version"
HASH_KEY = "content_hash"
ORIGIN_KEY = "produced_by"
TOMBSTONE_KEY = "tombstoned_at"
MESSAGE_ID_KEY = "message_id"


def content_hash(text: str | None) -> str:
    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()


def new_span_id(prefix: str = "doc") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:16]}"


def stamp(doc: Document, origin: str = "ingest") -> Document:
    """Attach version/hash bookkeeping to a freshly produced document."""
    doc.meta.setdefault(VERSION_KEY, 0)
    doc.meta.setdefault(ORIGIN_KEY, origin)
    doc.meta[HASH_KEY] = content_hash(doc.content)
    return doc


def version_of(doc: Document) -> int:
    return int(doc.meta.get(VERSION_KEY, 0))


def hash_of(doc: Document) -> str:
    return doc.meta.get(HASH_KEY) or content_hash(doc.content)


def is_tombstoned(doc: Document) -> bool:
    return doc.meta.get(TOMBSTONE_KEY) is not None


def now() -> float:
    return time.time()


@dataclass(frozen=True)
class SpanKey:
    span_id: str
    version: int
    content_hash: str

    @classmethod
    def of(cls, doc: Document) -> "SpanKey":
        return cls(doc.id, version_of(doc), hash_of(doc))

    @classmethod
    def of_message(cls, msg: ChatMessage) -> "SpanKey":
        return cls(
            msg.meta[MESSAGE_ID_KEY],
            int(msg.meta.get("rev", 0)),
            content_hash(msg.text),
        )
