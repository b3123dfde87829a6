"""Session transcript: the turns the assistant's context is assembled from."""

import re
import uuid
from typing import Dict, Iterable, Iterator, List, Optional

from llama_index.core.llms import ChatMessage, MessageRole, TextBlock

from .records import Tombstone, TurnSpan, digest

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_MARKDOWN = re.compile(r"(\*\*|__|`{1,3}|^#+\s*)", re.MULTILINE)


def sentence_offsets(text: str) -> List[tuple]:
    return [(m.start(), m.end()) for m in _SENTENCE.finditer(text) if m.group().strip()]


def _stamp(msg: ChatMessage, span: TurnSpan) -> None:
    msg.additional_kwargs["turn_id"] = span.span_id
    msg.additional_kwargs["rev"] = span.version


def _set_text(msg: ChatMessage, text: str) -> None:
    msg.blocks = [TextBlock(text=text)]


class Transcript:
    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        self._spans: Dict[str, TurnSpan] = {}
        self._order: List[str] = []
        self.tombstones: Dict[str, Tombstone] = {}

    def __iter__(self) -> Iterator[TurnSpan]:
        return (self._spans[s] for s in self._order if s in self._spans)

    def get(self, span_id: str) -> Optional[TurnSpan]:
        return self._spans.get(span_id)

    def append(self, message: ChatMessage, produced_by: str = "user") -> TurnSpan:
        span = TurnSpan(f"t-{uuid.uuid4().hex[:12]}", message, produced_by=produced_by)
        span.sentence_offsets = sentence_offsets(span.text)
        _stamp(message, span)
        self._spans[span.span_id] = span
        self._order.append(span.span_id)
        return span

    def replace_text(self, span_id: str, text: str, op: str) -> TurnSpan:
        span = self._spans[span_id]
        _set_text(span.message, text)
        span.version += 1
        span.content_hash = digest(text)
        span.sentence_offsets = sentence_offsets(text)
        span.produced_by = f"rewrite:{op}"
        _stamp(span.message, span)
        return span

    def rewrite_as_new(self, span_id: str, text: str, op: str) -> TurnSpan:
        old = self._spans[span_id]
        msg = ChatMessage(role=old.role, blocks=[TextBlock(text=text)])
        version = old.version + 1
        new = TurnSpan(f"{span_id}@{op}:{version}", msg, version=version, produced_by=f"rewrite:{op}")
        new.sentence_offsets = sentence_offsets(text)
        _stamp(msg, new)
        self._spans[new.span_id] = new
        self._order[self._order.index(span_id)] = new.span_id
        self.tombstones[span_id] = Tombstone(span_id=span_id, replaced_by=new.span_id, reason=op)
        return new

    def redact_emails(self, span_id: str) -> bool:
        span = self._spans.get(span_id)
        if span is None:
            return False
        cleaned = _EMAIL.sub("[email]", span.text)
        if cleaned == span.text:
            return False
        _set_text(span.message, cleaned)
        span.produced_by = "rewrite:redact"
        return True

    def normalize(self, span_ids: Iterable[str]) -> int:
        """Collapse runs of whitespace in user turns (pasted logs, stack traces)."""
        touched = 0
        for sid in span_ids:
            span = self._spans.get(sid)
            if span is None or span.role != MessageRole.USER:
                continue
            msg = span.message
            text = " ".join(span.text.split())
            if text != span.text:
                msg.content = text
                span.version += 1
                touched += 1
        return touched

    def strip_markdown(self, span_id: str) -> TurnSpan:
        """Plain-text rendering of an assistant answer for the SMS channel."""
        span = self._spans[span_id]
        plain = _MARKDOWN.sub("", span.text)
        _set_text(span.message, plain)
        span.version += 1
        span.content_hash = digest(plain)
        _stamp(span.message, span)
        return span

    def drop(self, span_id: str) -> Optional[TurnSpan]:
        span = self._spans.pop(span_id, None)
        if span_id in self._order:
            self._order.remove(span_id)
        return span
