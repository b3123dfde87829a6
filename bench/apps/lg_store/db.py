"""Tiny sqlite persistence for user accounts and API keys."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    email TEXT NOT NULL,
    updated_at REAL NOT NULL
);
"""


@dataclass
class UserRow:
    id: str
    display_name: str
    email: str
    updated_at: float


def connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    return conn


def get_user(conn: sqlite3.Connection, user_id: str) -> UserRow | None:
    row = conn.execute(
        "SELECT id, display_name, email, updated_at FROM users WHERE id = ?", (user_id,)
    ).fetchone()
    return UserRow(*row) if row else None


def rename_user(conn: sqlite3.Connection, user_id: str, display_name: str, now: float) -> None:
    conn.execute(
        "UPDATE users SET display_name = ?, updated_at = ? WHERE id = ?",
        (display_name.strip(), now, user_id),
    )
    conn.commit()
