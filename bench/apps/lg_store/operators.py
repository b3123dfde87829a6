"""Rewrite operators: normalize, redact, compress, condense."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace

from langchain_core.documents import Document
from langchain_core.messages import BaseMessage

from .buffer import SpanBuffer
from .models import (
    SPAN_HASH_KEY,
    SPAN_VERSION_KEY,
    Note,
    SpanRecord,
    content_digest,
    message_text,
    message_version,
    sentence_offsets,
)

_WS = re.compile(r"\s+")
DEFAULT_PATTERNS = (
    re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.]+\b"),
    re.compile(r"\b(?:\d[ -]?){13,16}\b"),
    re.compile(r"\bsk-[A-Za-z0-9]{20,}\b"),
)


def _collapse(text: str) -> str:
    return _WS.sub(" ", text).strip()


def _redact(text: str, patterns: Iterable[re.Pattern[str]] = DEFAULT_PATTERNS) -> str:
    for pat in patterns:
        text = pat.sub("[REDACTED]", text)
    return text


def _first_sentences(text: str, n: int = 2) -> str:
    parts = [text[a:b] for a, b in sentence_offsets(text)]
    return "".join(parts[:n]).strip()


def canonical_query(query: str) -> str:
    query = query.strip().lower()
    query = _WS.sub(" ", query)
    return query


# --- store-backed spans ------------------------------------------------------


def normalize_whitespace(buffer: SpanBuffer) -> int:
    changed = 0
    for item in buffer.iter_items(tombstoned=False):
        cleaned = _collapse(item.value["content"])
        if cleaned == item.value["content"]:
            continue
        buffer.store.put(
            buffer.ns,
            item.key,
            {**item.value, "content": cleaned, "content_hash": content_digest(cleaned)},
        )
        changed += 1
    return changed


def compress_span(buffer: SpanBuffer, span_id: str, max_sentences: int = 2) -> SpanRecord:
    rec = buffer.get(span_id)
    if rec is None:
        raise KeyError(span_id)
    view = rec
    view.content = _first_sentences(view.content, max_sentences)
    view.version += 1
    view.sentence_offsets = sentence_offsets(view.content)
    view.produced_by = "rewrite:compress"
    buffer.save(rec)
    return rec


def condense_span(buffer: SpanBuffer, span_id: str, summary: str) -> None:
    item = buffer.store.get(buffer.ns, span_id)
    if item is None:
        return
    value = dict(item.value)
    value.update(
        content=summary,
        version=int(value.get("version", 0)) + 1,
        content_hash=content_digest(summary),
        produced_by="rewrite:condense",
    )
    buffer.store.put(buffer.ns, span_id, value)


def redact_span(buffer: SpanBuffer, span_id: str) -> None:
    item = buffer.store.get(buffer.ns, span_id)
    if item is None:
        return
    redacted = _redact(item.value["content"])
    if redacted == item.value["content"]:
        return
    buffer.store.put(
        buffer.ns,
        span_id,
        {
            **item.value,
            "content": redacted,
            "version": int(item.value.get("version", 0)) + 1,
            "content_hash": content_digest(redacted),
            "sentence_offsets": sentence_offsets(redacted),
            "produced_by": "rewrite:redact",
        },
    )


# --- chat messages -----------------------------------------------------------


def redact_messages(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """Return redacted replacements for messages that contain secrets."""
    updates: list[BaseMessage] = []
    for msg in messages:
        text = message_text(msg)
        redacted = _redact(text)
        if redacted != text:
            updates.append(msg.model_copy(update={"content": redacted}))
    return updates


def redact_message(msg: BaseMessage) -> BaseMessage:
    text = message_text(msg)
    redacted = _redact(text)
    if redacted == text:
        return msg
    version, _ = message_version(msg)
    kwargs = {
        **msg.additional_kwargs,
        SPAN_VERSION_KEY: version + 1,
        SPAN_HASH_KEY: content_digest(redacted),
    }
    return msg.model_copy(update={"content": redacted, "additional_kwargs": kwargs})


# --- retrieved documents and notes ------------------------------------------------


def compress_documents(docs: Sequence[Document], max_sentences: int = 3) -> list[Document]:
    return [
        Document(
            id=d.id,
            page_content=_first_sentences(d.page_content, max_sentences),
            metadata=d.metadata,
        )
        for d in docs
    ]


def tidy_notes(notes: dict[str, Note]) -> dict[str, Note]:
    now = time.time()
    return {
        note_id: replace(note, text=_collapse(_redact(note.text)), updated_ts=now)
        for note_id, note in notes.items()
    }
