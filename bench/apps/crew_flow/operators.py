"""Rewrite operators applied to the context buffer between turns."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from crew_flow.spans import ContextBuffer, ContextSpan, digest

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
_TOKEN = re.compile(r"\b(?:sk|pk|ghp|xox[bp])-?[A-Za-z0-9_]{16,}\b")
_PHONE = re.compile(r"\+?\d[\d\s().-]{8,}\d")
_WS = re.compile(r"[ \t]+")
_BLANKS = re.compile(r"\n{3,}")

REDACTED = "[redacted]"


def redact_text(text: str) -> str:
    text = _EMAIL.sub(REDACTED, text)
    text = _TOKEN.sub(REDACTED, text)
    return _PHONE.sub(REDACTED, text)


def needs_redaction(text: str) -> bool:
    return bool(_EMAIL.search(text) or _TOKEN.search(text) or _PHONE.search(text))


def redact_in_buffer(buffer: ContextBuffer, kinds: Iterable[str] = ("tool", "retrieval")) -> list[str]:
    wanted = set(kinds)
    touched: list[str] = []
    for span in buffer.live():
        if span.kind not in wanted or not needs_redaction(span.content):
            continue
        buffer.rewrite_in_place(span.id, redact_text(span.content), op="redact")
        touched.append(span.id)
    return touched


def normalize_span(span: ContextSpan) -> ContextSpan:
    text = unicodedata.normalize("NFKC", span.content)
    text = _BLANKS.sub("\n\n", _WS.sub(" ", text)).strip()
    if text != span.content:
        span.content = text
        span.content_hash = digest(text)
        span.produced_by = "rewrite:normalize"
    return span


def compress_tool_output(span: ContextSpan, limit: int = 2_000, keep_tail: int = 400) -> bool:
    s = span
    body = s.content
    if len(body) <= limit:
        return False
    head = body[: limit - keep_tail]
    tail = body[-keep_tail:]
    dropped = len(body) - len(head) - len(tail)
    s.content = f"{head}\n... [{dropped} chars elided] ...\n{tail}"
    s.version += 1
    s.produced_by = "rewrite:compress"
    return True


def normalize_all(buffer: ContextBuffer) -> int:
    changed = 0
    for span in buffer.live():
        before = span.content_hash
        normalize_span(span)
        changed += span.content_hash != before
    return changed
