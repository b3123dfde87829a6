"""SQLite persistence for users and sessions (not context)."""
from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from typing import Optional

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    bio TEXT NOT NULL DEFAULT '',
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    title TEXT NOT NULL DEFAULT '',
    started_at REAL NOT NULL
);
"""


@dataclass
class UserRow:
    id: str
    display_name: str
    bio: str = ""
    updated_at: float = 0.0


class Database:
    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path)
        self.conn.row_factory = sqlite3.Row
        self.conn.executescript(SCHEMA)

    def get_user(self, user_id: str) -> Optional[UserRow]:
        row = self.conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
        return UserRow(**dict(row)) if row else None

    def save_user(self, user: UserRow) -> None:
        user.updated_at = time.time()
        self.conn.execute(
            "INSERT INTO users (id, display_name, bio, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET display_name = excluded.display_name, "
            "bio = excluded.bio, updated_at = excluded.updated_at",
            (user.id, user.display_name, user.bio, user.updated_at),
        )
        self.conn.commit()

    def update_bio(self, user_id: str, bio: str) -> None:
        user = self.get_user(user_id)
        if user is None:
            raise KeyError(user_id)
        user.bio = bio.strip()
        self.save_user(user)

    def rename_session(self, session_id: str, title: str) -> None:
        self.conn.execute("UPDATE sessions SET title = ? WHERE id = ?", (title, session_id))
        self.conn.commit()
