"""Rewrite operators applied to the context buffer between turns."""

from __future__ import annotations

import re
import unicodedata
from typing import Mapping

from google.adk.events.event import Event
from google.adk.sessions import BaseSessionService
from google.adk.sessions import Session
from google.genai import types

from .buffer import ContextBuffer
from .models import ScratchNote
from .models import SpanRecord
from .models import content_digest
from .models import sentence_bounds

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_PHONE = re.compile(r"\+?\d[\d\s().-]{7,}\d")
_WS = re.compile(r"\s+")


def scrub_text(text: str) -> str:
    text = _EMAIL.sub("[email]", text)
    return _PHONE.sub("[phone]", text)


def squeeze_ws(text: str) -> str:
    return _WS.sub(" ", text).strip()


def normalize_span(rec: SpanRecord) -> SpanRecord:
    cleaned = unicodedata.normalize("NFKC", squeeze_ws(rec.content))
    if cleaned != rec.content:
        rec.content = cleaned
        rec.version += 1
        rec.sentence_spans = sentence_bounds(cleaned)
        rec.produced_by = "rewrite:normalize"
    return rec


def normalize_all(buffer: ContextBuffer) -> int:
    changed = 0
    for rec in buffer:
        before = rec.version
        if normalize_span(rec).version != before:
            changed += 1
    return changed


def compress_span(buffer: ContextBuffer, span_id: str, max_chars: int) -> SpanRecord:
    rec = buffer.get(span_id)
    if len(rec.content) <= max_chars:
        return rec
    head = rec.content[: max_chars - 1].rsplit(" ", 1)[0] + "\u2026"
    rec.content = head
    rec.content_hash = content_digest(head)
    rec.sentence_spans = sentence_bounds(head)
    rec.produced_by = "rewrite:compress"
    return rec


def redact_span(buffer: ContextBuffer, span_id: str) -> SpanRecord:
    target = buffer.get(span_id)
    redacted = scrub_text(target.content)
    if redacted != target.content:
        target.content = redacted
        target.version += 1
        target.content_hash = content_digest(redacted)
        target.produced_by = "rewrite:redact"
    return target


def condense_notes(notes: Mapping[str, ScratchNote], limit: int = 280) -> list[str]:
    touched = []
    for note in notes.values():
        if note.pinned or len(note.text) <= limit:
            continue
        note.text = squeeze_ws(note.text)[:limit]
        touched.append(note.note_id)
    return touched


async def redact_event_as_copy(
    session_service: BaseSessionService, session: Session, event: Event
) -> Event:
    if event.content is None or not event.content.parts:
        return event
    parts = [
        types.Part.from_text(text=scrub_text(p.text)) if p.text else p
        for p in event.content.parts
    ]
    replacement = Event(
        invocation_id=event.invocation_id,
        author=event.author,
        branch=event.branch,
        content=types.Content(role=event.content.role, parts=parts),
        custom_metadata={"supersedes": event.id, "op": "redact"},
    )
    return await session_service.append_event(session, replacement)
