"""Tools the assistant can call to edit its own context."""

from __future__ import annotations

import time
import uuid
from typing import Optional

from pydantic import Field

from atomic_agents import BaseIOSchema, BaseTool, BaseToolConfig

from .models import SpanBody, ToolNote, digest
from .store import SpanHistory
from .textutil import scrub_pii


class RedactSpanInput(BaseIOSchema):
    """Redact personal data from a retained span."""

    span_id: str = Field(..., description="Span to redact")


class RedactSpanOutput(BaseIOSchema):
    """Result of a redaction."""

    new_span_id: str = Field(..., description="Id of the redacted copy")


class RedactSpanTool(BaseTool[RedactSpanInput, RedactSpanOutput]):
    def __init__(self, history: SpanHistory, config: Optional[BaseToolConfig] = None):
        super().__init__(config)
        self.history = history

    def run(self, params: RedactSpanInput) -> RedactSpanOutput:
        old = self.history.body(params.span_id)
        if old is None:
            raise KeyError(params.span_id)
        fresh = SpanBody(
            span_id=f"sp-{uuid.uuid4().hex[:10]}",
            text=scrub_pii(old.text),
            produced_by="rewrite:redact",
        )
        old.tombstoned = True
        old.tombstoned_at = time.time()
        old.superseded_by = fresh.span_id
        self.history.add_message("system", fresh)
        return RedactSpanOutput(new_span_id=fresh.span_id)


class AnnotateSpanInput(BaseIOSchema):
    """Append a short annotation to a retained span."""

    span_id: str = Field(..., description="Span to annotate")
    note: str = Field(..., description="Annotation text")


class AnnotateSpanOutput(BaseIOSchema):
    """Result of an annotation."""

    span_id: str = Field(..., description="Annotated span")
    version: int = Field(..., description="Version after the edit")


class AnnotateSpanTool(BaseTool[AnnotateSpanInput, AnnotateSpanOutput]):
    def __init__(self, history: SpanHistory, config: Optional[BaseToolConfig] = None):
        super().__init__(config)
        self.history = history

    def run(self, params: AnnotateSpanInput) -> AnnotateSpanOutput:
        body = self.history.body(params.span_id)
        if body is None:
            raise KeyError(params.span_id)
        new_text = f"{body.text}\n[note] {params.note}"
        body.text = new_text
        body.version = body.version + 1
        body.content_hash = digest(new_text)
        body.produced_by = "rewrite:annotate"
        return AnnotateSpanOutput(span_id=body.span_id, version=body.version)


class ReviseNoteInput(BaseIOSchema):
    """Revise a note left by an earlier tool call."""

    note_id: str = Field(..., description="Note to revise")
    body: str = Field(..., description="Replacement text")


class ReviseNoteOutput(BaseIOSchema):
    """Result of a note revision."""

    note_id: str = Field(..., description="Revised note")
    ok: bool = Field(..., description="Whether the note was found")


class ReviseNoteTool(BaseTool[ReviseNoteInput, ReviseNoteOutput]):
    def __init__(self, history: SpanHistory, config: Optional[BaseToolConfig] = None):
        super().__init__(config)
        self.history = history

    def run(self, params: ReviseNoteInput) -> ReviseNoteOutput:
        for i, msg in enumerate(self.history.history):
            note = msg.content
            if isinstance(note, ToolNote) and note.note_id == params.note_id:
                revised = note.model_copy(update={"body": params.body})
                self.history.history[i] = msg.model_copy(update={"content": revised})
                return ReviseNoteOutput(note_id=params.note_id, ok=True)
        return ReviseNoteOutput(note_id=params.note_id, ok=False)


class LookupSpanInput(BaseIOSchema):
    """Read a retained span by id."""

    span_id: str = Field(..., description="Span to read")


class LookupSpanOutput(BaseIOSchema):
    """A retained span."""

    span_id: str = Field(..., description="Span id")
    version: int = Field(..., description="Span version")
    text: str = Field(..., description="Span text")


class LookupSpanTool(BaseTool[LookupSpanInput, LookupSpanOutput]):
    def __init__(self, history: SpanHistory, config: Optional[BaseToolConfig] = None):
        super().__init__(config)
        self.history = history

    def run(self, params: LookupSpanInput) -> LookupSpanOutput:
        body = self.history.body(params.span_id)
        if body is None:
            return LookupSpanOutput(span_id=params.span_id, version=-1, text="")
        return LookupSpanOutput(span_id=body.span_id, version=body.version, text=body.text)
