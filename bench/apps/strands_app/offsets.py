"""Sentence offset maps for highlighting and quoting spans of the context."""

from __future__ import annotations

import re

from strands.types.content import Message

from .buffer import ContextBuffer, text_of
from .models import NoteSpan, OffsetMap

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _SENTENCE.finditer(text) if m.group().strip()]


def build_offset_map(message: Message) -> OffsetMap:
    return OffsetMap(span_id=message["tracking_id"], offsets=sentence_bounds(text_of(message)))


class OffsetIndex:
    def __init__(self, store: ContextBuffer) -> None:
        self.store = store
        self._maps: dict[str, OffsetMap] = {}

    def for_message(self, message: Message) -> OffsetMap:
        tid = message["tracking_id"]
        if tid not in self._maps:
            self._maps[tid] = build_offset_map(message)
            self.store.hold(tid, "offset-index")
        return self._maps[tid]

    def sentences(self, tracking_id: str) -> list[str]:
        message = self.store.get(tracking_id)
        if message is None:
            return []
        text = text_of(message)
        return [text[start:end] for start, end in self.for_message(message).offsets]

    def drop(self, tracking_id: str) -> None:
        self._maps.pop(tracking_id, None)
        self.store.release(tracking_id, "offset-index")


def index_note(note: NoteSpan) -> NoteSpan:
    if not note.sentence_offsets:
        note.sentence_offsets = sentence_bounds(note.text)
    return note


def note_sentence(note: NoteSpan, n: int) -> str:
    start, end = note.sentence_offsets[n]
    return note.text[start:end]
