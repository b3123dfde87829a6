"""Cheap deterministic operators run on the buffer between turns."""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable

from sk_agents.spans import ContextSpan, digest

_WS = re.compile(r"[ \t\u00a0]+")
_BLANK_LINES = re.compile(r"\n{3,}")
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\ufeff"))


def _canonical(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_ZERO_WIDTH)
    text = _WS.sub(" ", text)
    return _BLANK_LINES.sub("\n\n", text).strip()


def normalize_spans(spans: Iterable[ContextSpan]) -> int:
    changed = 0
    for s in spans:
        cleaned = _canonical(s.text)
        if cleaned == s.text:
            continue
        s.text = cleaned
        s.content_hash = digest(cleaned)
        changed += 1
    return changed


def compress_span(span: ContextSpan, budget_chars: int) -> ContextSpan:
    if len(span.text) <= budget_chars:
        return span
    keep = max(budget_chars // 2 - 2, 1)
    span.text = f"{span.text[:keep]} … {span.text[-keep:]}"
    span.version += 1
    span.content_hash = digest(span.text)
    span.source = "rewrite:compress"
    return span


def render_for_prompt(span: ContextSpan, limit: int = 2000) -> str:
    content = span.text
    content = _canonical(content)
    if len(content) > limit:
        content = content[: limit - 1] + "…"
    content = f"[{span.span_id}] {content}"
    return content
