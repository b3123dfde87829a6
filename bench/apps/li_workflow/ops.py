"""Rewrite operators applied to spans of the context buffer."""

from __future__ import annotations

import re
import time
from typing import Iterable, Pattern

from llama_index.core import PromptTemplate
from llama_index.core.llms import LLM

from li_workflow.buffer import ContextBuffer
from li_workflow.spans import ContextSpan

DEFAULT_REDACTIONS: tuple[Pattern[str], ...] = (
    re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.]+\b"),
    re.compile(r"\b(?:\+?\d[\d -]{7,}\d)\b"),
    re.compile(r"\b(?:sk|pk|ghp)_[A-Za-z0-9]{16,}\b"),
)

SHORTEN_PROMPT = PromptTemplate(
    "Rewrite the following context so it keeps every fact, identifier and number "
    "but uses at most {max_words} words.\n---\n{text}\n---\nRewritten:"
)


def redact_span(
    buffer: ContextBuffer,
    span_id: str,
    patterns: Iterable[Pattern[str]] = DEFAULT_REDACTIONS,
) -> ContextSpan:
    s = buffer.get(span_id)
    text = s.content
    for pat in patterns:
        text = pat.sub("[redacted]", text)
    if text != s.content:
        s.content = text
        s.version += 1
        s.produced_by = "rewrite:redact"
        buffer.sync(s)
    return s


async def shorten_span(
    buffer: ContextBuffer, span_id: str, llm: LLM, max_words: int = 120
) -> ContextSpan:
    span = buffer.get(span_id)
    shorter = await llm.apredict(SHORTEN_PROMPT, text=span.content, max_words=max_words)
    return buffer.rewrite(span_id, shorter.strip(), op="shorten")


def fork_rewrite(
    buffer: ContextBuffer, span_id: str, new_content: str, op: str
) -> ContextSpan:
    old = buffer.get(span_id)
    forked = ContextSpan(
        span_id=f"{old.span_id}@{op}:{old.version + 1}",
        content=new_content,
        role=old.role,
        produced_by=f"rewrite:{op}",
        version=old.version + 1,
        source_ids=[old.span_id, *old.source_ids],
    )
    old.tombstoned_at = time.time()
    buffer.sync(old)
    buffer.add(forked)
    return forked
