"""Context rewrite operators: redact, normalize, compress."""
from __future__ import annotations

import dataclasses
import re
from typing import Iterable

from agno.agent import Agent

from agno_team.buffer import SpanBuffer
from agno_team.models import ContextSpan, content_digest, sentence_bounds

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
_PHONE = re.compile(r"\+?\d[\d\s().-]{7,}\d")


def normalize_whitespace(text: str) -> str:
    return " ".join(text.split())


def redact_text(text: str) -> str:
    text = _EMAIL.sub("[email]", text)
    return _PHONE.sub("[phone]", text)


def shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"


def redact_span(buffer: SpanBuffer, span_id: str) -> ContextSpan:
    span = buffer.get(span_id)
    if span is None:
        raise KeyError(span_id)
    cleaned = redact_text(span.content)
    if cleaned == span.content:
        return span
    return buffer.replace_content(span_id, cleaned, op="redact")


def canonicalize_span(span: ContextSpan) -> ContextSpan:
    new_text = normalize_whitespace(span.content)
    if new_text == span.content:
        return span
    span.content = new_text
    span.version += 1
    span.content_hash = content_digest(new_text)
    span.char_offsets = sentence_bounds(new_text)
    span.embedding = None
    return span


def normalize_span(span: ContextSpan) -> None:
    cleaned = normalize_whitespace(redact_text(span.content))
    if cleaned == span.content:
        return
    span.content = cleaned
    span.version += 1
    span.produced_by = "rewrite:normalize"
    span.char_offsets = sentence_bounds(cleaned)


def compress_spans(buffer: SpanBuffer, spans: Iterable[ContextSpan], limit: int) -> int:
    saved = 0
    for span in spans:
        if span.kind == "summary" or len(span.content) <= limit:
            continue
        shortened = shorten(span.content, limit)
        saved += len(span.content) - len(shortened)
        compact = dataclasses.replace(
            span,
            content=shortened,
            content_hash=content_digest(shortened),
            char_offsets=sentence_bounds(shortened),
            produced_by="rewrite:compress",
        )
        buffer.put(compact)
    return saved


async def arewrite_with_model(agent: Agent, span: ContextSpan) -> ContextSpan:
    result = await agent.arun(
        f"Rewrite the following passage to be concise. Keep every fact.\n\n{span.content}",
        stream=False,
    )
    text = result.content if isinstance(result.content, str) else str(result.content)
    span.content = text
    span.version += 1
    span.content_hash = content_digest(text)
    span.produced_by = "rewrite:model"
    return span
