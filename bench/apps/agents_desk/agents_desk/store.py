"""In-process context store: spans keyed by id, with tombstones for retired spans."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from types import MappingProxyType

from .models import ContextSpan, count_tokens, digest, sentence_offsets, utcnow

_WS = re.compile(r"[ \t]+")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


class SpanNotFound(KeyError):
    pass


class ContextStore:
    def __init__(self) -> None:
        self._spans: dict[str, ContextSpan] = {}
        self._order: list[str] = []

    # -- basic access -------------------------------------------------
    def add(self, span: ContextSpan) -> ContextSpan:
        self._spans[span.span_id] = span
        self._order.append(span.span_id)
        return span

    def get(self, span_id: str) -> ContextSpan:
        try:
            return self._spans[span_id]
        except KeyError as exc:
            raise SpanNotFound(span_id) from exc

    def live(self) -> Iterator[ContextSpan]:
        for sid in self._order:
            span = self._spans.get(sid)
            if span is not None and not span.tombstoned:
                yield span

    def tombstones(self) -> list[ContextSpan]:
        return [s for s in self._spans.values() if s.tombstoned]

    def delete(self, span_id: str) -> ContextSpan | None:
        span = self._spans.pop(span_id, None)
        if span_id in self._order:
            self._order.remove(span_id)
        return span

    def snapshot(self) -> MappingProxyType[str, ContextSpan]:
        return MappingProxyType(self._spans)

    # -- edits ------------------------------------------------------------
    def normalize_whitespace(self, span_id: str) -> ContextSpan:
        span = self.get(span_id)
        cleaned = "\n".join(_WS.sub(" ", line).strip() for line in span.text.splitlines())
        if cleaned == span.text:
            return span
        span.text = cleaned
        span.content_hash = digest(cleaned)
        span.token_count = count_tokens(cleaned)
        span.char_offsets = sentence_offsets(cleaned)
        return span

    def redact_emails(self, span_ids: Iterable[str]) -> int:
        touched = 0
        for sid in span_ids:
            target = self._spans.get(sid)
            if target is None:
                continue
            redacted = _EMAIL.sub("[email]", target.text)
            if redacted != target.text:
                target.text = redacted
                target.version += 1
                target.produced_by = "rewrite:redact"
                touched += 1
        return touched

    def rewrite(self, span_id: str, new_text: str, op: str) -> ContextSpan:
        span = self.get(span_id)
        span.text = new_text
        span.version += 1
        span.content_hash = digest(new_text)
        span.token_count = count_tokens(new_text)
        span.char_offsets = sentence_offsets(new_text)
        span.embedding = None
        span.produced_by = f"rewrite:{op}"
        return span

    def supersede(self, span_id: str, new_text: str, op: str) -> ContextSpan:
        old = self.get(span_id)
        successor = ContextSpan(
            span_id=f"{old.span_id}@{op}:{old.version + 1}",
            text=new_text,
            kind=old.kind,
            version=old.version + 1,
            produced_by=f"rewrite:{op}",
        )
        old.tombstoned_at = utcnow()
        self.add(successor)
        return successor
