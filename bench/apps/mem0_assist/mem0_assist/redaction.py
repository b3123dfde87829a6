"""Mask e-mail addresses and phone numbers before text leaves the device."""

from __future__ import annotations

import re

from .records import ContextSpan, digest, token_offsets

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_PHONE = re.compile(r"\+?\d[\d ()-]{7,}\d")


def scrub(text: str) -> str:
    text = _EMAIL.sub("<email>", text)
    return _PHONE.sub("<phone>", text)


def redact_span(span: ContextSpan) -> bool:
    cleaned = scrub(span.content)
    if cleaned == span.content:
        return False
    span.content = cleaned
    span.version += 1
    span.content_hash = digest(cleaned)
    span.produced_by = "rewrite:redact"
    return True


def redact_for_upload(span: ContextSpan) -> bool:
    cleaned = scrub(span.content)
    if cleaned == span.content:
        return False
    span.content = cleaned
    span.version += 1
    span.content_hash = digest(cleaned)
    span.token_offsets = token_offsets(cleaned)
    span.embedding = None
    span.produced_by = "rewrite:redact"
    return True
