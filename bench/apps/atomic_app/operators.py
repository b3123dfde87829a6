"""Rewrite operators over the context buffer."""

from __future__ import annotations

from atomic_agents.context import Message

from .embeddings import embed_text
from .models import IndexedSpan, SpanBody, digest
from .store import SpanHistory
from .textutil import normalize_whitespace, scrub_pii, sentence_offsets, truncate


def redact_pii(history: SpanHistory, span_id: str) -> SpanBody:
    body = history.body(span_id)
    if body is None:
        raise KeyError(span_id)
    cleaned = scrub_pii(body.text)
    if cleaned != body.text:
        body.text = cleaned
        body.content_hash = digest(cleaned)
        body.produced_by = "rewrite:redact"
    return body


def normalize_all(history: SpanHistory) -> int:
    changed = 0
    for msg in history.spans():
        target = msg.content
        if target.tombstoned:
            continue
        new_text = normalize_whitespace(target.text)
        if new_text != target.text:
            target.text = new_text
            target.version += 1
            changed += 1
    return changed


def canonicalize(history: SpanHistory, span_id: str) -> SpanBody:
    body = history.body(span_id)
    if body is None:
        raise KeyError(span_id)
    return history.replace_text(span_id, normalize_whitespace(body.text).lower(), op="canonicalize")


def compress_indexed(span: IndexedSpan, limit: int = 400) -> IndexedSpan:
    short = truncate(span.text, limit)
    if short == span.text:
        return span
    span.text = short
    span.version += 1
    span.content_hash = digest(short)
    return span


def reindex_after_rewrite(span: IndexedSpan, new_text: str) -> IndexedSpan:
    span.text = new_text
    span.version += 1
    span.content_hash = digest(new_text)
    span.sentence_offsets = sentence_offsets(new_text)
    span.embedding = embed_text(new_text)
    return span


def trim_transcripts(messages: list[Message], keep_chars: int = 2000) -> list[Message]:
    out = []
    for msg in messages:
        if isinstance(msg.content, SpanBody) and msg.content.produced_by == "tool" and len(msg.content.text) > keep_chars:
            trimmed = msg.content.model_copy(update={"text": msg.content.text[-keep_chars:]})
            out.append(msg.model_copy(update={"content": trimmed}))
        else:
            out.append(msg)
    return out


def apply_trim(history: SpanHistory, keep_chars: int = 2000) -> None:
    history.history = trim_transcripts(history.history, keep_chars)
