"""Tools the case agent can call to manage its own notes and citations."""

from __future__ import annotations

import uuid
from dataclasses import replace

from strands import ToolContext, tool

from .buffer import ContextBuffer
from .citations import make_citation, remember_anchors
from .models import NoteSpan, digest
from .offsets import index_note


def _store(tool_context: ToolContext) -> ContextBuffer:
    return tool_context.invocation_state["casebook_store"]


@tool(context=True)
def pin_note(text: str, tool_context: ToolContext) -> str:
    """Pin a short note (a fact, a constraint, a customer detail) into the working context.

    Args:
        text: The note text.
    """
    note = index_note(NoteSpan(span_id=f"note-{uuid.uuid4().hex[:10]}", text=text))
    _store(tool_context).add_note(note)
    return note.span_id


@tool(context=True)
def revise_note(note_id: str, new_text: str, tool_context: ToolContext) -> str:
    """Correct a pinned note.

    Args:
        note_id: Id returned by pin_note.
        new_text: Corrected text.
    """
    store = _store(tool_context)
    note = store.notes[note_id]
    store.notes[note_id] = replace(
        note, text=new_text, version=note.version + 1, content_hash=digest(new_text), produced_by="tool:revise"
    )
    return f"{note_id} now at v{note.version + 1}"


@tool(context=True)
def supersede_note(note_id: str, new_text: str, reason: str, tool_context: ToolContext) -> str:
    """Replace a pinned note with a new one.

    Args:
        note_id: Id of the note being replaced.
        new_text: Text of the replacement note.
        reason: Why the old note no longer holds.
    """
    store = _store(tool_context)
    old = store.notes[note_id]
    new = index_note(NoteSpan(span_id=f"note-{uuid.uuid4().hex[:10]}", text=new_text, produced_by=f"supersede:{reason}"))
    store.add_note(new)
    old.tombstone(successor=new.span_id)
    return new.span_id


@tool(context=True)
def cite_context(tracking_id: str, start: int, end: int, tool_context: ToolContext) -> dict:
    """Record a citation into a message of the current conversation.

    Args:
        tracking_id: tracking_id of the cited message.
        start: Start character offset.
        end: End character offset.
    """
    record = make_citation(_store(tool_context), tracking_id, start, end)
    remember_anchors(tool_context.agent, [record])
    return {"status": "success", "content": [{"text": record.quote}]}
