"""Function tools exposed to the desk agents."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

from agents import RunContextWrapper, function_tool

from .citations import anchor
from .hooks import DeskContext
from .models import Note, digest, sentence_offsets

NOTES: dict[str, Note] = {}
_DB = sqlite3.connect(":memory:", check_same_thread=False)
_DB.execute(
    "CREATE TABLE IF NOT EXISTS tickets (id TEXT PRIMARY KEY, status TEXT, assignee TEXT, updated_at TEXT)"
)


@function_tool
def search_kb(ctx: RunContextWrapper[DeskContext], query: str) -> str:
    """Search knowledge-base spans for a phrase and return cited sentences."""
    store = ctx.context.store
    hits = []
    for span in store.live():
        if span.kind != "kb":
            continue
        for i, (start, end) in enumerate(span.char_offsets):
            if query.lower() in span.text[start:end].lower():
                c = anchor(span, i, label=span.span_id)
                ctx.context.cited_span_ids.add(c.span_id)
                hits.append(f"{c.span_id}#{i}: {span.text[start:end].strip()}")
    return "\n".join(hits[:5]) or "no matches"


@function_tool
def revise_note(ctx: RunContextWrapper[DeskContext], note_id: str, body: str) -> str:
    """Replace the body of an existing ticket note."""
    note = NOTES[note_id]
    note.body = body
    note.version += 1
    note.body_hash = digest(body)
    return f"{note_id} now at v{note.version}"


@function_tool
def rewrite_note(ctx: RunContextWrapper[DeskContext], note_id: str, body: str) -> str:
    """Rewrite a note, clearing anything derived from the previous body."""
    note = NOTES[note_id]
    note.body = body
    note.version += 1
    note.body_hash = digest(body)
    note.char_offsets = sentence_offsets(body)
    note.embedding = None
    return f"{note_id} now at v{note.version}"


@function_tool
def set_ticket_status(ticket_id: str, status: str, assignee: str | None = None) -> str:
    """Update the status (and optionally assignee) of a helpdesk ticket."""
    now = datetime.now(timezone.utc).isoformat()
    _DB.execute(
        "UPDATE tickets SET status = ?, assignee = COALESCE(?, assignee), updated_at = ? WHERE id = ?",
        (status, assignee, now, ticket_id),
    )
    _DB.commit()
    return f"{ticket_id} -> {status}"


DESK_TOOLS = [search_kb, revise_note, rewrite_note, set_ticket_status]
