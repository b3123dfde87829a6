# rules: SPL101, SPL102, SPL103, SPL104
"""Span classes of the tree that carry a version: dataclasses, plain classes, pydantic-style models."""
from dataclasses import dataclass, field, replace

from pydantic import BaseModel


@dataclass
class Span:
    span_id: str
    content: str
    version: int = 0

    def rewrite(self, text: str) -> None:
        self.content = text  # expect: SPL101

    def rewrite_bumped(self, text: str) -> None:
        self.content = text
        self.version += 1

    def touch_up(self, text: str) -> None:
        self.version += 1
        self.content = text


class Note(BaseModel):
    id: str
    body: str
    revision: int = 0


class Record:
    """A plain class with its own id and content but no version: a span for SPL103, not for SPL101."""

    def __init__(self, record_id, content):
        self.id = record_id
        self.content = content

    def rewrite(self, text):
        self.content = text  # expect: SPL103


def bump(span: Span) -> None:
    span.version += 1


def shorten(span: Span, limit: int) -> None:
    span.content = span.content[:limit]  # expect: SPL101


def shorten_with_helper(span: Span, limit: int) -> None:
    span.content = span.content[:limit]
    bump(span)


def edit_note(note: Note, text: str) -> None:
    note.body = text  # expect: SPL101


def edit_note_bumped(note: Note, text: str) -> None:
    note.body = text
    note.revision += 1


async def aedit_note(note: Note, text: str) -> Note:
    note.body = text  # expect: SPL101
    return note


def store_back(buf: dict, s: Span, text: str) -> None:
    buf[s.span_id] = replace(s, content=text)  # expect: SPL101


def store_back_bumped(buf: dict, s: Span, text: str) -> None:
    buf[s.span_id] = replace(s, content=text, version=s.version + 1)


def store_new_id(buf: dict, s: Span, text: str, new_id: str) -> None:
    buf[new_id] = replace(s, span_id=new_id, content=text)


def reedit(record: Record, text: str) -> None:
    record.content = text  # expect: SPL103


def fresh_span(text: str) -> Span:
    span = Span("s", "")
    span.content = text
    return span
