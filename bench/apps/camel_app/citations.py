"""Citations into context spans."""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from .buffer import ContextBuffer
from .models import Citation, record_hash, record_id, record_version
from .offsets import StaleSpanError


class CitationBuilder:
    def __init__(self, buffer: ContextBuffer) -> None:
        self.buffer = buffer
        self._quotes: Dict[Tuple[str, int, str, int, int], str] = {}

    def cite(self, span_id: str, needle: str) -> Optional[Citation]:
        record = self.buffer.get(span_id)
        text = record.message.content
        start = text.find(needle)
        if start < 0:
            return None
        self.buffer.hold(span_id, holder=f"citation:{start}")
        return Citation(
            span_id=record_id(record),
            version=record_version(record),
            content_hash=record_hash(record),
            start=start,
            end=start + len(needle),
            quote=needle,
        )

    def quote(self, citation: Citation) -> str:
        key = (citation.span_id, citation.version, citation.content_hash, citation.start, citation.end)
        if key not in self._quotes:
            self._quotes[key] = self.verified_text(citation)
        return self._quotes[key]

    def verified_text(self, citation: Citation) -> str:
        record = self.buffer.find(citation.span_id)
        if record is None:
            raise StaleSpanError(f"span {citation.span_id} is gone")
        if record_version(record) != citation.version or record_hash(record) != citation.content_hash:
            raise StaleSpanError(f"span {citation.span_id} changed since it was cited")
        return record.message.content[citation.start:citation.end]


def render_footnotes(buffer: ContextBuffer, citations: List[Citation]) -> str:
    lines = []
    for n, c in enumerate(citations, start=1):
        text = buffer.get(c.span_id).message.content
        lines.append(f"[{n}] \u201c{text[c.start:c.end]}\u201d ({c.span_id[:8]})")
    return "\n".join(lines)
