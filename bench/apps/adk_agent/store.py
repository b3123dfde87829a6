"""SQLite persistence for user accounts and preferences (not context)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Optional

_SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    email TEXT,
    preset TEXT NOT NULL DEFAULT 'brief'
);
"""


@dataclass
class UserRow:
    id: str
    display_name: str
    email: Optional[str]
    preset: str


def connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    conn.executescript(_SCHEMA)
    return conn


def get_user(conn: sqlite3.Connection, user_id: str) -> Optional[UserRow]:
    row = conn.execute(
        "SELECT id, display_name, email, preset FROM users WHERE id = ?", (user_id,)
    ).fetchone()
    return UserRow(**dict(row)) if row else None


def upsert_user(conn: sqlite3.Connection, user: UserRow) -> None:
    conn.execute(
        "INSERT INTO users (id, display_name, email, preset) VALUES (?, ?, ?, ?) "
        "ON CONFLICT(id) DO UPDATE SET display_name = excluded.display_name, "
        "email = excluded.email, preset = excluded.preset",
        (user.id, user.display_name, user.email, user.preset),
    )
    conn.commit()


def rename_user(conn: sqlite3.Connection, user_id: str, display_name: str) -> None:
    conn.execute("UPDATE users SET display_name = ? WHERE id = ?", (display_name, user_id))
    conn.commit()
