"""Rewrite operators applied to spans before they go into the prompt."""

from __future__ import annotations

import re
from typing import Iterable, Pattern

from . import records
from .records import Span, sha_of

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
BEARER = re.compile(r"(?i)\bbearer\s+[a-z0-9._~+/-]{12,}=*")
SECRET_KV = re.compile(r"(?i)\b(api[_-]?key|secret|token|password)\s*[:=]\s*\S+")
CARD = re.compile(r"\b(?:\d[ -]?){13,16}\b")

DEFAULT_PATTERNS: tuple[Pattern[str], ...] = (EMAIL, BEARER, SECRET_KV, CARD)

_RUNS = re.compile(r"[ \t\u00a0]+")
_BLANKS = re.compile(r"\n{3,}")

COMPRESS_PROMPT = (
    "Shorten the following tool output to at most {budget} characters. Keep every "
    "identifier, number, path and error message verbatim; drop progress lines and "
    "repeated log noise.\n\n---\n{text}\n---"
)


def redact(span: Span, patterns: Iterable[Pattern[str]] = DEFAULT_PATTERNS) -> Span:
    text = span["text"]
    for pat in patterns:
        text = pat.sub("[REDACTED]", text)
    if text != span["text"]:
        span["text"] = text
        span["sha"] = sha_of(text)
        span["by"] = "rewrite:redact"
    return span


def normalize(span: Span) -> bool:
    lines = (_RUNS.sub(" ", ln).rstrip() for ln in span["text"].splitlines())
    cleaned = _BLANKS.sub("\n\n", "\n".join(lines)).strip()
    if cleaned == span["text"]:
        return False
    span.update(text=cleaned, rev=span.get("rev", 0) + 1, by="rewrite:normalize")
    return True


def compress(span: Span, llm, budget: int = 1500) -> Span:
    if len(span["text"]) <= budget:
        return span
    short = llm.complete(COMPRESS_PROMPT.format(budget=budget, text=span["text"])).strip()
    if not short or len(short) >= len(span["text"]):
        return span
    return records.set_text(span, short, by="rewrite:compress")


def apply_ingest_pipeline(store, llm, budget: int = 1500) -> int:
    changed = 0
    for span in store.live():
        if span["kind"] not in ("tool", "user"):
            continue
        before = span["sha"]
        redact(span)
        normalize(span)
        if span["kind"] == "tool":
            compress(span, llm, budget)
        changed += span["sha"] != before
    return changed
