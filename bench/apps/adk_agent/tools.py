"""Function tools exposed to the briefing agent."""

from __future__ import annotations

import uuid
from typing import Any

from google.adk.tools import FunctionTool
from google.adk.tools import ToolContext
from google.adk.tools import load_memory

from .buffer import ContextBuffer

NOTES_KEY = "notes"


def add_note(text: str, tool_context: ToolContext) -> dict[str, Any]:
    """Save a short working note for later in this session.

    Args:
      text: The note text.
    """
    notes = dict(tool_context.state.get(NOTES_KEY, {}))
    note_id = uuid.uuid4().hex[:8]
    notes[note_id] = {"text": text, "version": 1, "author": tool_context.agent_name}
    tool_context.state[NOTES_KEY] = notes
    return {"status": "ok", "note_id": note_id}


def revise_note(note_id: str, text: str, tool_context: ToolContext) -> dict[str, Any]:
    """Replace the text of an existing working note.

    Args:
      note_id: The id returned by add_note.
      text: The new note text.
    """
    notes = tool_context.state.get(NOTES_KEY, {})
    record = notes.get(note_id)
    if record is None:
        return {"status": "error", "message": f"no note {note_id}"}
    record["text"] = text
    record["author"] = tool_context.agent_name
    tool_context.state[NOTES_KEY] = notes
    return {"status": "ok", "note_id": note_id, "version": record["version"]}


class SpanTools:
    def __init__(self, buffer: ContextBuffer) -> None:
        self._buffer = buffer

    def locate_phrase(self, span_id: str, phrase: str) -> dict[str, Any]:
        """Find a phrase inside a context span so it can be quoted exactly.

        Args:
          span_id: The span to search.
          phrase: The phrase to find.
        """
        rec = self._buffer.find(span_id)
        if rec is None:
            return {"status": "error", "message": "unknown span"}
        start = rec.content.find(phrase)
        if start < 0:
            return {"status": "not_found"}
        return {
            "status": "ok",
            "span_id": rec.span_id,
            "version": rec.version,
            "content_hash": rec.content_hash,
            "start": start,
            "end": start + len(phrase),
        }

    def quote_span(
        self, span_id: str, version: int, content_hash: str, start: int, end: int
    ) -> dict[str, Any]:
        """Return the exact text at a location found by locate_phrase.

        Args:
          span_id: The span id from locate_phrase.
          version: The version from locate_phrase.
          content_hash: The content_hash from locate_phrase.
          start: Start character offset.
          end: End character offset.
        """
        rec = self._buffer.find(span_id)
        if rec is None:
            return {"status": "error", "message": "unknown span"}
        return {"status": "ok", "span_id": span_id, "quote": rec.content[start:end]}


def build_tools(buffer: ContextBuffer) -> list[Any]:
    spans = SpanTools(buffer)
    return [
        FunctionTool(add_note),
        FunctionTool(revise_note),
        FunctionTool(spans.locate_phrase),
        FunctionTool(spans.quote_span),
        load_memory,
    ]
