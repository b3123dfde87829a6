"""Rewrite operators over the context buffer and session history."""

from __future__ import annotations

import re
import textwrap

from agents import Agent, Runner

from .buffer import ContextBuffer
from .models import AgentNote, DeskSpan, digest
from .session_store import DeskSession, item_hash

_SECRET_RE = re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9]{16,}\b")
_CARD_RE = re.compile(r"\b(?:\d[ -]?){13,16}\b")
_EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


def normalize_whitespace(buffer: ContextBuffer) -> int:
    touched = 0
    for span in buffer.live():
        cleaned = " ".join(span.content.split())
        if cleaned != span.content:
            span.content = cleaned
            span.content_hash = digest(cleaned)
            touched += 1
    return touched


def redact_contact_details(spans: list[DeskSpan]) -> list[DeskSpan]:
    out = []
    for span in spans:
        redacted = _EMAIL_RE.sub("[email]", _CARD_RE.sub("[card]", span.content))
        if redacted != span.content:
            span.content = redacted
            span.version += 1
            span.produced_by = "rewrite:redact"
        out.append(span)
    return out


def redact_secrets(span: DeskSpan) -> DeskSpan:
    redacted = _SECRET_RE.sub("[secret]", span.content)
    if redacted == span.content:
        return span
    span.content = redacted
    span.version += 1
    span.content_hash = digest(redacted)
    span.produced_by = "rewrite:redact"
    span.embedding = None
    span.sentence_offsets = []
    return span


async def summarize_in_place(buffer: ContextBuffer, span_id: str, summarizer: Agent) -> DeskSpan:
    span = buffer.get(span_id)
    if span is None:
        raise KeyError(span_id)
    result = await Runner.run(summarizer, span.content)
    summary = str(result.final_output)
    span.content = summary
    span.version += 1
    span.content_hash = digest(summary)
    span.produced_by = "rewrite:summarize"
    return span


def shorten_notes(notes: list[AgentNote], width: int = 160) -> None:
    for note in notes:
        if len(note.text) > width:
            note.text = textwrap.shorten(note.text, width=width, placeholder=" …")


async def scrub_session_emails(session: DeskSession) -> int:
    count = 0
    for row in session.rows():
        item = row["item"]
        content = item.get("content")
        if isinstance(content, str) and _EMAIL_RE.search(content):
            await session.replace_item(row["item_id"], {**item, "content": _EMAIL_RE.sub("[email]", content)})
            count += 1
    return count


def mask_session_cards(session: DeskSession) -> int:
    count = 0
    for row in session.rows():
        content = row["item"].get("content")
        if isinstance(content, str) and _CARD_RE.search(content):
            row["item"] = {**row["item"], "content": _CARD_RE.sub("[card]", content)}
            row["version"] += 1
            row["hash"] = item_hash(row["item"])
            count += 1
    return count
