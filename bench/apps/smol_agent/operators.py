"""Rewrite operators applied to context spans."""

from __future__ import annotations

import re

from smolagents.models import ChatMessage, MessageRole, Model

from .models import ContextSpan, digest
from .store import SpanBuffer

EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
TAG_RE = re.compile(r"<[^>]+>")


def ask_model(model: Model, instruction: str, text: str) -> str:
    message = ChatMessage(
        role=MessageRole.USER,
        content=[{"type": "text", "text": f"{instruction}\n\n{text}"}],
    )
    reply = model.generate([message])
    content = reply.content
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content)
    return (content or "").strip()


def normalize_query(query: str) -> str:
    query = query.strip().lower()
    query = re.sub(r"\s+", " ", query)
    return query


def normalize_whitespace(span: ContextSpan) -> ContextSpan:
    span.content = " ".join(span.content.split())
    span.content_hash = digest(span.content)
    span.produced_by = "rewrite:normalize"
    return span


def redact_pii(span: ContextSpan) -> ContextSpan:
    span.content = EMAIL_RE.sub("[email]", span.content)
    span.version += 1
    span.produced_by = "rewrite:redact"
    return span


def strip_markup(buffer: SpanBuffer, span_id: str) -> ContextSpan:
    span = buffer.get(span_id)
    cleaned = TAG_RE.sub("", span.content)
    if cleaned != span.content:
        span.content = cleaned
        span.version += 1
        span.content_hash = digest(cleaned)
        span.embedding = None
        span.sentence_offsets = []
    return span


def compress(span: ContextSpan, model: Model, budget: int) -> ContextSpan:
    text = ask_model(model, f"Compress the following to at most {budget} characters.", span.content)
    span.content = text
    span.version += 1
    span.content_hash = digest(text)
    span.produced_by = "rewrite:compress"
    return span


def compress_and_reset(span: ContextSpan, model: Model, budget: int) -> ContextSpan:
    text = ask_model(model, f"Compress the following to at most {budget} characters.", span.content)
    span.content = text
    span.version += 1
    span.content_hash = digest(text)
    span.produced_by = "rewrite:compress"
    span.embedding = None
    span.sentence_offsets = []
    return span


def summarize_as_copy(buffer: SpanBuffer, span_id: str, model: Model, budget: int) -> ContextSpan:
    span = buffer.get(span_id)
    text = ask_model(model, f"Summarize in at most {budget} characters.", span.content)
    return buffer.rewrite_as_copy(span_id, text, "summarize")


PIPELINE = {
    "normalize": normalize_whitespace,
    "redact": redact_pii,
}


def run_pipeline(buffer: SpanBuffer, names: list[str]) -> None:
    ops = [PIPELINE[n] for n in names]
    for span in buffer.live():
        for op in ops:
            op(span)
