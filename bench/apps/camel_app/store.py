"""Persistence: notes and the sessions table."""
from __future__ import annotations

import dataclasses
import sqlite3
import time
from typing import Dict, Iterator, List, Optional

from .models import Note


class NoteStore:
    def __init__(self) -> None:
        self._notes: Dict[str, Note] = {}
        self._by_tag: Dict[str, List[str]] = {}

    def add(self, note: Note) -> None:
        self._notes[note.note_id] = note
        for tag in note.tags:
            self._by_tag.setdefault(tag, []).append(note.note_id)

    def get(self, note_id: str) -> Note:
        return self._notes[note_id]

    def all(self) -> Iterator[Note]:
        return iter(self._notes.values())

    def update_text(self, note_id: str, text: str) -> Note:
        updated = dataclasses.replace(self._notes[note_id], text=text)
        self._notes[note_id] = updated
        return updated


class SessionTable:
    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path)
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS sessions ("
            " id TEXT PRIMARY KEY, title TEXT NOT NULL, updated_at REAL NOT NULL)"
        )

    def upsert(self, session_id: str, title: str) -> None:
        self.conn.execute(
            "INSERT INTO sessions (id, title, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET title=excluded.title, updated_at=excluded.updated_at",
            (session_id, title, time.time()),
        )
        self.conn.commit()

    def rename(self, session_id: str, title: str) -> None:
        self.conn.execute(
            "UPDATE sessions SET title = ?, updated_at = ? WHERE id = ?",
            (title, time.time(), session_id),
        )
        self.conn.commit()

    def title(self, session_id: str) -> Optional[str]:
        row = self.conn.execute("SELECT title FROM sessions WHERE id = ?", (session_id,)).fetchone()
        return row[0] if row else None
