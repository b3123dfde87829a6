"""Rolling conversation summary and per-session digests."""

from __future__ import annotations

import re
from typing import Iterable

from haystack import Document
from haystack.dataclasses import ChatMessage
from haystack.document_stores.in_memory import InMemoryDocumentStore
from haystack.document_stores.types import DuplicatePolicy

from .spans import HASH_KEY, MESSAGE_ID_KEY, ORIGIN_KEY, VERSION_KEY, content_hash, new_span_id

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def summarize_text(texts: Iterable[str], max_sentences: int = 6) -> str:
    """Extractive summary: leading sentences of each input, capped."""
    picked: list[str] = []
    for text in texts:
        sentences = [s.strip() for s in _SENTENCE.split(text or "") if s.strip()]
        picked.extend(sentences[:2])
        if len(picked) >= max_sentences:
            break
    return " ".join(picked[:max_sentences])


class RollingSummary:
    def __init__(self, max_chars: int = 1200) -> None:
        self.max_chars = max_chars
        self._summary: ChatMessage | None = None

    @property
    def message(self) -> ChatMessage | None:
        return self._summary

    def condense(self) -> None:
        if self._summary is None or len(self._summary.text or "") <= self.max_chars:
            return
        shorter = summarize_text([self._summary.text or ""], max_sentences=3)
        self._summary = ChatMessage.from_system(
            f"Conversation so far: {shorter}",
            meta={MESSAGE_ID_KEY: new_span_id("summary"), "kind": "summary"},
        )

    def rebuild(self, sources: list[ChatMessage]) -> ChatMessage:
        texts = [m.text or "" for m in sources if m.text]
        self._summary = ChatMessage.from_system(
            f"Conversation so far: {summarize_text(texts)}",
            meta={
                MESSAGE_ID_KEY: new_span_id("summary"),
                "kind": "summary",
                "source_ids": [m.meta[MESSAGE_ID_KEY] for m in sources],
                "source_hashes": [content_hash(m.text) for m in sources],
            },
        )
        return self._summary

    def roll(self, new_messages: list[ChatMessage]) -> ChatMessage:
        prior = self._summary
        inputs = ([prior.text or ""] if prior else []) + [m.text or "" for m in new_messages]
        prior_sources = list(prior.meta.get("source_ids", [])) if prior else []
        lineage = list(prior.meta.get("lineage", [])) if prior else []
        if prior is not None:
            lineage.append(prior.meta[MESSAGE_ID_KEY])
        self._summary = ChatMessage.from_system(
            f"Conversation so far: {summarize_text(inputs)}",
            meta={
                MESSAGE_ID_KEY: new_span_id("summary"),
                "kind": "summary",
                "parent_summary": prior.meta[MESSAGE_ID_KEY] if prior else None,
                "lineage": lineage,
                "source_ids": prior_sources + [m.meta[MESSAGE_ID_KEY] for m in new_messages],
            },
        )
        return self._summary


def merge_session_digests(store: InMemoryDocumentStore, session_id: str) -> Document | None:
    summaries = store.filter_documents(
        {
            "operator": "AND",
            "conditions": [
                {"field": "meta.session_id", "operator": "==", "value": session_id},
                {"field": "meta.kind", "operator": "==", "value": "summary"},
            ],
        }
    )
    if len(summaries) < 2:
        return None
    digest_text = summarize_text([d.content or "" for d in summaries], max_sentences=8)
    digest = Document(
        id=new_span_id("digest"),
        content=digest_text,
        meta={"session_id": session_id, "kind": "digest", VERSION_KEY: 0, HASH_KEY: content_hash(digest_text)},
    )
    store.write_documents([digest], policy=DuplicatePolicy.OVERWRITE)
    store.delete_documents([d.id for d in summaries])
    return digest


def persist_summary(store: InMemoryDocumentStore, session_id: str, summary: ChatMessage) -> Document:
    text = summary.text or ""
    doc = Document(
        id=summary.meta[MESSAGE_ID_KEY],
        content=text,
        meta={
            "session_id": session_id,
            "kind": "summary",
            "source_ids": list(summary.meta.get("source_ids", [])),
            VERSION_KEY: 0,
            HASH_KEY: content_hash(text),
            ORIGIN_KEY: "summary",
        },
    )
    store.write_documents([doc], policy=DuplicatePolicy.SKIP)
    return doc
