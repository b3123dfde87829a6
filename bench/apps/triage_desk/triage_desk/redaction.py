"""PII scrubbing before items reach the model or the store."""

from __future__ import annotations

import re

from agents import TResponseInputItem

from .spans import SpanStore

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
PASSWORD = re.compile(r"(?i)(password|passwd|pwd)\s*[:=]\s*\S+")


def scrub(text: str) -> str:
    return PASSWORD.sub(r"\1: [redacted]", EMAIL.sub("[email]", text))


def scrub_session_input(
    history: list[TResponseInputItem], new_input: list[TResponseInputItem]
) -> list[TResponseInputItem]:
    """RunConfig.session_input_callback: merge history and new input, scrubbed."""
    merged = list(history) + list(new_input)
    for item in merged:
        if isinstance(item, dict) and isinstance(item.get("content"), str):
            item["content"] = scrub(item["content"])
    return merged


def redact_span(store: SpanStore, span_id: str) -> None:
    span = store.get(span_id)
    if span is None:
        return
    redacted = scrub(span.content)
    if redacted != span.content:
        span.content = redacted
        span.version += 1
        span.produced_by = "rewrite:redact"


def normalize_query(query: str) -> str:
    return " ".join(query.lower().split())
