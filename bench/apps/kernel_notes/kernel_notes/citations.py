"""Citations into note spans, rendered as quoted excerpts in answers."""

from __future__ import annotations

from kernel_notes.buffer import NoteBuffer
from kernel_notes.records import Citation, CitationRef
from kernel_notes.spans import NoteSpan


class StaleCitationError(LookupError):
    pass


def cite(span: NoteSpan, phrase: str, label: str = "") -> Citation | None:
    start = span.text.find(phrase)
    if start < 0:
        return None
    return Citation(span_id=span.span_id, start=start, end=start + len(phrase), label=label)


def quote(buffer: NoteBuffer, citation: Citation) -> str:
    span = buffer.get(citation["span_id"])
    if span is None:
        return ""
    excerpt = span.text[citation["start"] : citation["end"]]
    return f"“{excerpt}” [{citation['label'] or citation['span_id']}]"


def cite_ref(span: NoteSpan, phrase: str, label: str = "") -> CitationRef | None:
    start = span.text.find(phrase)
    if start < 0:
        return None
    end = start + len(phrase)
    return CitationRef(span_id=span.span_id, version=span.version, sha=span.sha, start=start, end=end, label=label)


def quote_ref(buffer: NoteBuffer, ref: CitationRef) -> str:
    span = buffer.get(ref.span_id)
    if span is None:
        raise StaleCitationError(f"{ref.span_id} is gone")
    if span.version != ref.version or span.sha != ref.sha:
        raise StaleCitationError(f"{ref.span_id} changed since it was cited (v{ref.version} -> v{span.version})")
    if ref.end > len(span.text):
        raise StaleCitationError(f"{ref.span_id}: offsets past end of text")
    return f"“{span.text[ref.start : ref.end]}” [{ref.label or ref.span_id}]"


class CitationBook:
    """Citations handed out in answers; they pin the spans they point at."""

    def __init__(self) -> None:
        self.refs: list[CitationRef] = []

    def referenced_span_ids(self) -> set[str]:
        return {r.span_id for r in self.refs}
