"""PII redaction for case context before it is shared outside the support org."""

from __future__ import annotations

import dataclasses
import re

from .decisions import DecisionLog
from .spans import ContextStore, Span

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+"), "<email>"),
    (re.compile(r"\b(?:\+?\d{1,3}[ .-]?)?(?:\(\d{3}\)|\d{3})[ .-]?\d{3}[ .-]?\d{4}\b"), "<phone>"),
    (re.compile(r"\b(?:\d[ -]?){13,16}\b"), "<card>"),
    (re.compile(r"\b(?:api|sk|pk)_[A-Za-z0-9]{16,}\b"), "<secret>"),
)


def scrub(text: str) -> str:
    for pat, repl in _PATTERNS:
        text = pat.sub(repl, text)
    return text


def has_pii(text: str) -> bool:
    return any(p.search(text) for p, _ in _PATTERNS)


def redact_span(store: ContextStore, span_id: str) -> Span:
    span = store.get(span_id)
    clean = scrub(span.content)
    if clean != span.content:
        span.version += 1
        span.content = clean
        span.produced_by = "rewrite:redact"
    return span


def redact_case(store: ContextStore, span_ids: list[str]) -> dict[str, str]:
    moved: dict[str, str] = {}
    for sid in span_ids:
        span = store.get(sid)
        if span.is_tombstoned or not has_pii(span.content):
            continue
        moved[sid] = store.rewrite(sid, scrub(span.content), op="redact").span_id
    return moved


def scrub_decision_log(log: DecisionLog) -> int:
    n = 0
    for i, entry in enumerate(log._entries):
        if has_pii(entry.rationale) or any(has_pii(e) for e in entry.evidence):
            log._entries[i] = dataclasses.replace(
                entry,
                rationale=scrub(entry.rationale),
                evidence=tuple(scrub(e) for e in entry.evidence),
            )
            n += 1
    return n
