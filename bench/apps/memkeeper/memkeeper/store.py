from __future__ import annotations

import time
import uuid
from typing import Iterable, Iterator

from .hashing import digest_of
from .records import MemoryRecord, Note


class MemoryStore:
    """In-process mirror of an agent's memory."""

    def __init__(self) -> None:
        self._records: dict[str, MemoryRecord] = {}
        self._notes: dict[str, Note] = {}

    def add(self, text: str, source_ids: Iterable[str] = ()) -> MemoryRecord:
        rec: MemoryRecord = {
            "id": f"mem-{uuid.uuid4().hex[:12]}",
            "text": text,
            "version": 1,
            "digest": digest_of(text),
            "source_ids": list(source_ids),
        }
        self._records[rec["id"]] = rec
        return rec

    def get(self, record_id: str) -> MemoryRecord | None:
        return self._records.get(record_id)

    def __iter__(self) -> Iterator[MemoryRecord]:
        return iter(list(self._records.values()))

    def live(self) -> list[MemoryRecord]:
        return [r for r in self._records.values() if not r.get("tombstoned_at")]

    def rewrite(self, record_id: str, new_text: str) -> MemoryRecord:
        rec = self._records[record_id]
        if new_text == rec["text"]:
            return rec
        rec["text"] = new_text
        rec["version"] += 1
        rec["digest"] = digest_of(new_text)
        return rec

    def patch_text(self, record_id: str, new_text: str) -> None:
        rec = self._records.get(record_id)
        if rec is None:
            return
        rec["text"] = new_text
        rec["version"] += 1

    def replace_with_copy(self, record_id: str, new_text: str) -> MemoryRecord:
        old = self._records[record_id]
        fresh = self.add(new_text, source_ids=[old["id"]])
        old["tombstoned_at"] = time.time()
        return fresh

    def tombstone(self, record_id: str) -> None:
        rec = self._records.get(record_id)
        if rec is not None:
            rec["tombstoned_at"] = time.time()

    def drop(self, record_id: str) -> None:
        self._records.pop(record_id, None)

    def put_note(self, note: Note) -> None:
        self._notes[note["id"]] = note

    def notes(self) -> list[Note]:
        return list(self._notes.values())

    def edit_note(self, note_id: str, body: str) -> None:
        note = self._notes[note_id]
        note["body"] = body
