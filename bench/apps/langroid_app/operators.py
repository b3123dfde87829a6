"""Rewrite operators: redact, normalize, compress, canonicalize."""
from __future__ import annotations

import re
import unicodedata
from typing import Callable, Dict, Iterable, List, Pattern, Sequence

from langroid.agent.chat_agent import ChatAgent
from langroid.language_models.base import LLMMessage

from .models import ContextSpan, IndexedChunk, digest, new_id, sentence_bounds
from .store import SpanBuffer

PII_PATTERNS: List[Pattern[str]] = [
    re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+"),
    re.compile(r"\b(?:\+?\d[\d -]{7,}\d)\b"),
    re.compile(r"\b\d{3}-\d{2}-\d{4}\b"),
]


def _scrub(text: str, patterns: Sequence[Pattern[str]]) -> str:
    for pat in patterns:
        text = pat.sub("[REDACTED]", text)
    return text


def clean_user_input(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\u200b", "")
    text = " ".join(text.split())
    return text


def redact_history(agent: ChatAgent, patterns: Sequence[Pattern[str]] = PII_PATTERNS) -> int:
    """Scrub PII from every message the LLM will see on the next turn."""
    changed = 0
    for msg in agent.message_history:
        if not msg.content:
            continue
        scrubbed = _scrub(msg.content, patterns)
        if scrubbed != msg.content:
            msg.content = scrubbed
            changed += 1
    return changed


def redact_span(buffer: SpanBuffer, span_id: str, patterns: Sequence[Pattern[str]] = PII_PATTERNS) -> ContextSpan:
    span = buffer.get(span_id)
    return buffer.rewrite(span_id, _scrub(span.content, patterns), op="redact")


def normalize_spans(spans: Iterable[ContextSpan]) -> List[str]:
    touched = []
    for span in spans:
        cleaned = clean_user_input(span.content)
        if cleaned != span.content:
            span.content = cleaned
            span.version += 1
            touched.append(span.span_id)
    return touched


def canonicalize_span(span: ContextSpan, table: Dict[str, str]) -> ContextSpan:
    text = span.content
    for alias, canonical in table.items():
        text = re.sub(rf"\b{re.escape(alias)}\b", canonical, text)
    if text != span.content:
        span.content = text
        span.version += 1
        span.content_hash = digest(text)
        span.produced_by = "rewrite:canonicalize"
    return span


def compress_span(
    buffer: SpanBuffer,
    span_id: str,
    summarize: Callable[[str], str],
    min_chars: int = 1200,
) -> ContextSpan:
    target = buffer.get(span_id)
    if len(target.content) < min_chars:
        return target
    short = summarize(target.content)
    target.content = short
    target.content_hash = digest(short)
    target.produced_by = "rewrite:compress"
    return target


def compact_tool_result(
    agent: ChatAgent,
    idx: int,
    archive: Dict[str, LLMMessage],
    tokens: int = 200,
) -> LLMMessage:
    """Shorten a bulky tool result; keep the original in the archive."""
    original = agent.message_history[idx]
    short = agent.truncate_message(idx, tokens=tokens, inplace=False)
    short.chat_document_id = new_id("cd")
    archive[original.chat_document_id] = original
    agent.message_history[idx] = short
    return short


def rescrub_chunk(chunk: IndexedChunk, patterns: Sequence[Pattern[str]] = PII_PATTERNS) -> IndexedChunk:
    new_text = _scrub(chunk.text, patterns)
    if new_text != chunk.text:
        chunk.text = new_text
        chunk.version += 1
        chunk.content_hash = digest(new_text)
    return chunk


def rewrite_chunk(chunk: IndexedChunk, new_text: str) -> IndexedChunk:
    chunk.text = new_text
    chunk.version += 1
    chunk.content_hash = digest(new_text)
    chunk.embedding = None
    chunk.sentences = sentence_bounds(new_text)
    return chunk
