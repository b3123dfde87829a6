"""In-process buffer of note spans backing the chat context."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from kernel_notes.spans import NoteSpan, sha, tokenize_offsets


class NoteBuffer:
    def __init__(self) -> None:
        self._spans: dict[str, NoteSpan] = {}
        self._order: list[str] = []

    def add(self, span: NoteSpan) -> NoteSpan:
        if span.span_id not in self._spans:
            self._order.append(span.span_id)
        self._spans[span.span_id] = span
        return span

    def get(self, span_id: str) -> NoteSpan | None:
        return self._spans.get(span_id)

    def require(self, span_id: str) -> NoteSpan:
        if (span := self._spans.get(span_id)) is None:
            raise KeyError(f"unknown note span {span_id!r}")
        return span

    def all(self) -> list[NoteSpan]:
        return [self._spans[sid] for sid in self._order if sid in self._spans]

    def live(self) -> list[NoteSpan]:
        return [s for s in self.all() if not s.is_tombstoned]

    def drop(self, span_id: str) -> NoteSpan | None:
        self._order = [sid for sid in self._order if sid != span_id]
        return self._spans.pop(span_id, None)

    def snapshot(self) -> Mapping[str, str]:
        """Read-only id -> text view for the sidebar and exports."""
        return MappingProxyType({s.span_id: s.text for s in self.live()})

    def rewrite(self, span_id: str, new_text: str, op: str) -> NoteSpan:
        span = self.require(span_id)
        span.text = new_text
        span.version += 1
        span.sha = sha(new_text)
        span.token_offsets = tokenize_offsets(new_text)
        span.source = f"rewrite:{op}"
        return span

    def fork(self, span_id: str, new_text: str, op: str) -> NoteSpan:
        """Rewrite into a fresh span; the old one stays readable as a tombstone."""
        old = self.require(span_id)
        new_id = f"{old.span_id}~{old.version + 1}"
        new = NoteSpan(new_id, new_text, version=old.version + 1, source=f"rewrite:{op}", derived_from=[old.span_id])
        old.tombstoned_at = time.time()
        return self.add(new)

    def normalize_whitespace(self) -> int:
        changed = 0
        for span in self.live():
            cleaned = " ".join(span.text.split())
            if cleaned == span.text:
                continue
            target = self._spans[span.span_id]
            target.text = cleaned
            changed += 1
        return changed

    def redact(self, span_id: str, patterns: Iterable[str]) -> NoteSpan:
        span = self.require(span_id)
        redacted = span.text
        for pattern in patterns:
            redacted = re.sub(pattern, "[redacted]", redacted)
        if redacted != span.text:
            span.text = redacted
            span.version += 1
            span.token_offsets = tokenize_offsets(redacted)
        return span
