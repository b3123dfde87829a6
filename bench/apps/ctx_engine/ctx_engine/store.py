"""SQLite persistence: chat sessions and window snapshots."""
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from .window import ContextWindow

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, title TEXT NOT NULL, content TEXT NOT NULL DEFAULT '', updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS segment_snapshots (
    seg_id TEXT, rev INTEGER, digest TEXT, body TEXT NOT NULL, PRIMARY KEY (seg_id, rev, digest)
);
"""


@dataclass
class SessionRow:
    id: str
    title: str
    content: str
    updated_at: float


class SessionStore:
    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path)
        self.conn.executescript(SCHEMA)

    def save_notes(self, row: SessionRow, content: str) -> SessionRow:
        row.content = content
        row.updated_at = time.time()
        with self.conn:
            self.conn.execute(
                "UPDATE sessions SET content = ?, updated_at = ? WHERE id = ?",
                (row.content, row.updated_at, row.id),
            )
        return row

    def snapshot(self, window: ContextWindow) -> int:
        rows = [(s.seg_id, s.rev, s.digest, s.body) for s in window]
        with self.conn:
            self.conn.executemany("INSERT OR IGNORE INTO segment_snapshots VALUES (?, ?, ?, ?)", rows)
        return len(rows)
