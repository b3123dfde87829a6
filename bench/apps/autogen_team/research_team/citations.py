"""Citations into research notes, addressed by character offsets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, List

from .notes import NoteStore, ResearchNote


class StaleCitationError(RuntimeError):
    pass


@dataclass(frozen=True)
class Citation:
    note_id: str
    start: int
    end: int
    version: int
    content_hash: str
    label: str = ""

    def as_markdown(self) -> str:
        return f"[{self.label or self.note_id}:{self.start}-{self.end}]"


def cite(note: ResearchNote, needle: str, label: str = "") -> Citation:
    start = note.text.find(needle)
    if start < 0:
        raise ValueError(f"{needle!r} not found in note {note.note_id}")
    return Citation(note.note_id, start, start + len(needle), note.version, note.content_hash, label)


def quote(store: NoteStore, citation: Citation) -> str:
    note = store.require(citation.note_id)
    return note.text[citation.start : citation.end]


def resolve(store: NoteStore, citation: Citation) -> str:
    note = store.get(citation.note_id)
    if note is None or not note.alive:
        raise StaleCitationError(f"note {citation.note_id} is gone")
    if (note.version, note.content_hash) != (citation.version, citation.content_hash):
        raise StaleCitationError(
            f"citation built against v{citation.version} but note {note.note_id} is v{note.version}"
        )
    if citation.end > len(note.text):
        raise StaleCitationError(f"offsets {citation.start}-{citation.end} exceed note length")
    return note.text[citation.start : citation.end]


def bibliography(store: NoteStore, citations: Iterable[Citation]) -> List[str]:
    lines: List[str] = []
    for c in citations:
        try:
            lines.append(f"{c.as_markdown()} \u201c{resolve(store, c)}\u201d")
        except StaleCitationError as exc:
            lines.append(f"{c.as_markdown()} (needs re-citation: {exc})")
    return lines
