"""Tools the agent can call on its own context."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from camel.toolkits import BaseToolkit, FunctionTool

from .buffer import ContextBuffer, SpanNotFound
from .citations import CitationBuilder
from .models import PRODUCED_BY_KEY, record_hash, record_version
from .operators import redact_text
from .store import NoteStore


class ContextToolkit(BaseToolkit):
    def __init__(
        self,
        buffer: ContextBuffer,
        notes: NoteStore,
        citations: CitationBuilder,
        timeout: Optional[float] = None,
    ) -> None:
        super().__init__(timeout=timeout)
        self.buffer = buffer
        self.notes = notes
        self.citations = citations

    def get_span(self, span_id: str) -> Dict[str, Any]:
        r"""Return a read-only view of one context span.

        Args:
            span_id (str): The span's uuid.

        Returns:
            Dict[str, Any]: The span's id, version, hash and text.
        """
        try:
            record = self.buffer.get(span_id)
        except SpanNotFound:
            return {"error": f"no span {span_id}"}
        return {
            "id": span_id,
            "version": record_version(record),
            "content_hash": record_hash(record),
            "produced_by": record.extra_info.get(PRODUCED_BY_KEY, ""),
            "text": record.message.content,
        }

    def redact_span(self, span_id: str) -> str:
        r"""Mask e-mail addresses and phone numbers in a span.

        Args:
            span_id (str): The span's uuid.

        Returns:
            str: The new version number of the span.
        """
        record = self.buffer.get(span_id)
        updated = self.buffer.rewrite(span_id, redact_text(record.message.content), op="redact")
        return str(record_version(updated))

    def annotate_note(self, note_id: str, text: str) -> str:
        r"""Append an annotation to a saved note.

        Args:
            note_id (str): The note's id.
            text (str): The annotation to append.

        Returns:
            str: The note's full text after annotation.
        """
        note = self.notes.get(note_id)
        note.text = f"{note.text}\n\n> {text}"
        return note.text

    def cite(self, span_id: str, quote: str) -> Dict[str, Any]:
        r"""Create a citation to an exact quote inside a span.

        Args:
            span_id (str): The span's uuid.
            quote (str): The exact text to cite.

        Returns:
            Dict[str, Any]: The citation, or an error.
        """
        citation = self.citations.cite(span_id, quote)
        if citation is None:
            return {"error": "quote not found"}
        return citation.__dict__

    def get_tools(self) -> List[FunctionTool]:
        return [
            FunctionTool(self.get_span),
            FunctionTool(self.redact_span),
            FunctionTool(self.annotate_note),
            FunctionTool(self.cite),
        ]
