"""SQLite persistence for sessions, projects and saved histories."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from typing import Optional

from .store import SpanHistory

SCHEMA = """
CREATE TABLE IF NOT EXISTS projects (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    project_id INTEGER REFERENCES projects(id),
    history_json TEXT NOT NULL,
    saved_at REAL NOT NULL
);
"""


@dataclass
class ProjectRow:
    id: int
    title: str
    description: str
    updated_at: float


class Database:
    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path)
        self.conn.row_factory = sqlite3.Row
        self.conn.executescript(SCHEMA)

    def get_project(self, project_id: int) -> Optional[ProjectRow]:
        row = self.conn.execute("SELECT * FROM projects WHERE id = ?", (project_id,)).fetchone()
        return ProjectRow(**dict(row)) if row else None

    def rename_project(self, project_id: int, title: str, description: Optional[str] = None) -> ProjectRow:
        row = self.get_project(project_id)
        if row is None:
            raise KeyError(project_id)
        row.title = title
        if description is not None:
            row.description = description
        row.updated_at = time.time()
        with self.conn:
            self.conn.execute(
                "UPDATE projects SET title = ?, description = ?, updated_at = ? WHERE id = ?",
                (row.title, row.description, row.updated_at, row.id),
            )
        return row

    def save_session(self, session_id: str, project_id: int, history: SpanHistory) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT OR REPLACE INTO sessions (id, project_id, history_json, saved_at) VALUES (?, ?, ?, ?)",
                (session_id, project_id, history.dump(), time.time()),
            )

    def load_session(self, session_id: str, history: SpanHistory) -> bool:
        row = self.conn.execute("SELECT history_json FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            return False
        history.load(row["history_json"])
        return True
