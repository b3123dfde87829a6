"""SQLite persistence for users and saved sessions (not context spans)."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass


@dataclass
class UserRow:
    id: int
    display_name: str
    updated_at: float


SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY,
    display_name TEXT NOT NULL,
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    title TEXT NOT NULL
);
"""


class UserRepository:
    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path)
        self.conn.executescript(SCHEMA)

    def get(self, user_id: int) -> UserRow | None:
        row = self.conn.execute(
            "SELECT id, display_name, updated_at FROM users WHERE id = ?", (user_id,)
        ).fetchone()
        return UserRow(*row) if row else None

    def rename(self, user_id: int, display_name: str) -> UserRow:
        now = time.time()
        with self.conn:
            self.conn.execute(
                "UPDATE users SET display_name = ?, updated_at = ? WHERE id = ?",
                (display_name, now, user_id),
            )
        return UserRow(user_id, display_name, now)

    def rename_session(self, session_id: str, title: str) -> None:
        with self.conn:
            self.conn.execute("UPDATE sessions SET title = ? WHERE id = ?", (title, session_id))
