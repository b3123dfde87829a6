"""smolagents tools exposing the context buffer to the agent."""

from __future__ import annotations

from smolagents import Tool

from .embeddings import SimilarityIndex
from .models import Note
from .operators import normalize_query
from .store import SpanBuffer


class RecallSpanTool(Tool):
    name = "recall_span"
    description = "Returns the current text of a context span given its id."
    inputs = {"span_id": {"type": "string", "description": "The id of the span to recall."}}
    output_type = "string"

    def __init__(self, buffer: SpanBuffer, **kwargs):
        super().__init__(**kwargs)
        self.buffer = buffer

    def forward(self, span_id: str) -> str:
        span = self.buffer.view().get(span_id)
        if span is None:
            return f"No span with id {span_id}."
        return f"{span.span_id} (v{span.version}): {span.content}"


class SearchContextTool(Tool):
    name = "search_context"
    description = "Searches the context buffer for spans similar to a query and returns their ids and scores."
    inputs = {
        "query": {"type": "string", "description": "What to look for."},
        "k": {"type": "integer", "description": "How many results to return.", "nullable": True},
    }
    output_type = "string"

    def __init__(self, buffer: SpanBuffer, index: SimilarityIndex, **kwargs):
        super().__init__(**kwargs)
        self.buffer = buffer
        self.index = index

    def forward(self, query: str, k: int | None = None) -> str:
        self.index.index(self.buffer.live())
        hits = self.index.search(normalize_query(query), k or 5)
        return "\n".join(f"{sid}\t{score:.3f}" for sid, score in hits)


class EditNoteTool(Tool):
    name = "edit_note"
    description = "Creates or updates a scratch note that the agent can refer to later."
    inputs = {
        "note_id": {"type": "string", "description": "Id of the note."},
        "text": {"type": "string", "description": "New text of the note."},
    }
    output_type = "string"

    def __init__(self, notes: dict[str, Note], **kwargs):
        super().__init__(**kwargs)
        self.notes = notes

    def forward(self, note_id: str, text: str) -> str:
        note = self.notes.get(note_id)
        if note is None:
            self.notes[note_id] = Note(note_id=note_id, text=text)
            return f"Created note {note_id}."
        note.text = text
        return f"Updated note {note_id}."
