from __future__ import annotations

from .models import ContextSpan, Note, content_hash, new_span_id


class SpanBuffer:
    def __init__(self) -> None:
        self.spans: dict[str, ContextSpan] = {}
        self.notes: dict[str, Note] = {}

    def put(self, text: str) -> ContextSpan:
        span = ContextSpan(span_id=new_span_id(), text=text)
        self.spans[span.span_id] = span
        return span

    def rewrite(self, span_id: str, text: str) -> ContextSpan:
        span = self.spans[span_id]
        span.text = text
        span.version += 1
        span.digest = content_hash(text)
        return span

    def retext(self, span_id: str, text: str) -> None:
        span = self.spans[span_id]
        span.version += 1
        span.text = text

    def fork(self, span_id: str, text: str) -> ContextSpan:
        old = self.spans[span_id]
        old.tombstoned = True
        fresh = ContextSpan(span_id=new_span_id(), text=text)
        self.spans[fresh.span_id] = fresh
        return fresh

    def edit_note(self, note_id: str, body: str) -> None:
        self.notes[note_id].body = body.strip()
