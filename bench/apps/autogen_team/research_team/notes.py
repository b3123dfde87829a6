"""The note store: research notes with ids, versions and content hashes."""

from __future__ import annotations

import hashlib
import time
import uuid
from dataclasses import dataclass, field
from typing import Dict, Iterable, Iterator, List, Optional


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def rough_tokens(text: str) -> int:
    return max(1, len(text) // 4)


@dataclass
class ResearchNote:
    note_id: str
    text: str
    source_url: str = ""
    version: int = 1
    content_hash: str = ""
    token_count: int = 0
    produced_by: str = "ingest"
    derived_from: List[str] = field(default_factory=list)
    embedding: Optional[List[float]] = None
    tombstoned_at: Optional[float] = None
    created_at: float = field(default_factory=time.time)

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.text)
        if not self.token_count:
            self.token_count = rough_tokens(self.text)

    @property
    def alive(self) -> bool:
        return self.tombstoned_at is None


class NoteStore:
    """In-process store of research notes shared by every agent on the team."""

    def __init__(self) -> None:
        self._notes: Dict[str, ResearchNote] = {}

    def __iter__(self) -> Iterator[ResearchNote]:
        return iter(list(self._notes.values()))

    def __len__(self) -> int:
        return len(self._notes)

    def get(self, note_id: str) -> Optional[ResearchNote]:
        return self._notes.get(note_id)

    def require(self, note_id: str) -> ResearchNote:
        note = self._notes.get(note_id)
        if note is None:
            raise KeyError(f"unknown note {note_id}")
        return note

    def add(self, text: str, source_url: str = "", produced_by: str = "ingest") -> ResearchNote:
        note = ResearchNote(note_id=uuid.uuid4().hex[:12], text=text, source_url=source_url, produced_by=produced_by)
        self._notes[note.note_id] = note
        return note

    def put(self, note: ResearchNote) -> None:
        self._notes[note.note_id] = note

    def live(self) -> List[ResearchNote]:
        return [n for n in self._notes.values() if n.alive]

    def tombstones(self) -> List[ResearchNote]:
        return [n for n in self._notes.values() if not n.alive]

    def delete(self, note_id: str) -> None:
        self._notes.pop(note_id, None)

    def tidy(self, note_id: str) -> ResearchNote:
        note = self.require(note_id)
        cleaned = " ".join(note.text.split())
        if cleaned == note.text:
            return note
        note.text = cleaned
        note.token_count = rough_tokens(cleaned)
        note.content_hash = digest(cleaned)
        return note

    def redact(self, note_id: str, phrases: Iterable[str]) -> ResearchNote:
        note = self.require(note_id)
        text = note.text
        for phrase in phrases:
            text = text.replace(phrase, "[redacted]")
        note.text = text
        note.version += 1
        note.token_count = rough_tokens(text)
        return note

    def revise(self, note_id: str, new_text: str, op: str = "rewrite:edit") -> ResearchNote:
        note = self.require(note_id)
        note.text = new_text
        note.version += 1
        note.content_hash = digest(new_text)
        note.token_count = rough_tokens(new_text)
        note.embedding = None
        note.produced_by = op
        return note

    def condense(self, note_id: str, shorter: str) -> ResearchNote:
        note = self.require(note_id)
        note.text = shorter
        note.version += 1
        note.content_hash = digest(shorter)
        note.produced_by = "rewrite:summarize"
        return note

    def rewrite(self, note_id: str, new_text: str, op: str) -> ResearchNote:
        old = self.require(note_id)
        successor = ResearchNote(
            note_id=f"{old.note_id}.{old.version + 1}",
            text=new_text,
            source_url=old.source_url,
            version=old.version + 1,
            produced_by=op,
            derived_from=[old.note_id],
        )
        old.tombstoned_at = time.time()
        self._notes[successor.note_id] = successor
        return successor
