"""Citations into knowledge-base articles, expressed as character offsets."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from haystack import Document
from haystack.document_stores.in_memory import InMemoryDocumentStore

from .spans import HASH_KEY, content_hash, version_of


class StaleCitationError(RuntimeError):
    pass


@dataclass
class Citation:
    doc_id: str
    start: int
    end: int
    title: str = ""


def make_citation(doc: Document, needle: str) -> Citation | None:
    text = doc.content or ""
    pos = text.find(needle)
    if pos < 0:
        return None
    return Citation(doc_id=doc.id, start=pos, end=pos + len(needle), title=doc.meta.get("title", ""))


def render_quote(store: InMemoryDocumentStore, cit: Citation) -> str:
    docs = store.filter_documents({"field": "id", "operator": "==", "value": cit.doc_id})
    if not docs:
        return ""
    return docs[0].content[cit.start : cit.end]


@dataclass(frozen=True)
class PinnedCitation:
    doc_id: str
    version: int
    content_hash: str
    start: int
    end: int
    title: str = ""


def pin_citation(doc: Document, needle: str) -> PinnedCitation | None:
    text = doc.content or ""
    pos = text.find(needle)
    if pos < 0:
        return None
    return PinnedCitation(
        doc_id=doc.id,
        version=version_of(doc),
        content_hash=doc.meta.get(HASH_KEY) or content_hash(text),
        start=pos,
        end=pos + len(needle),
        title=doc.meta.get("title", ""),
    )


def resolve_pinned(store: InMemoryDocumentStore, pin: PinnedCitation) -> str:
    docs = store.filter_documents({"field": "id", "operator": "==", "value": pin.doc_id})
    if not docs:
        raise StaleCitationError(f"{pin.doc_id} is gone")
    doc = docs[0]
    text = doc.content or ""
    if version_of(doc) != pin.version or content_hash(text) != pin.content_hash:
        raise StaleCitationError(f"{pin.doc_id} changed since it was cited")
    if pin.end > len(text):
        raise StaleCitationError(f"offsets {pin.start}:{pin.end} out of range for {pin.doc_id}")
    return text[pin.start : pin.end]


async def resolve_many(store: InMemoryDocumentStore, pins: list[PinnedCitation]) -> list[str | None]:
    async def one(pin: PinnedCitation) -> str | None:
        try:
            return await asyncio.to_thread(resolve_pinned, store, pin)
        except StaleCitationError:
            return None

    return list(await asyncio.gather(*(one(p) for p in pins)))
