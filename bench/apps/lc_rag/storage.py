"""SQLite persistence for workspaces and the ingestion job queue."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass

SCHEMA = """
CREATE TABLE IF NOT EXISTS workspaces (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    owner TEXT NOT NULL,
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS ingest_jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id TEXT NOT NULL,
    path TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued',
    attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    enqueued_at REAL NOT NULL,
    finished_at REAL
);
"""


@dataclass
class WorkspaceRow:
    id: str
    name: str
    owner: str
    updated_at: float


class Database:
    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        self.conn.executescript(SCHEMA)

    def get_workspace(self, workspace_id: str) -> WorkspaceRow | None:
        row = self.conn.execute("SELECT * FROM workspaces WHERE id = ?", (workspace_id,)).fetchone()
        return WorkspaceRow(**dict(row)) if row else None

    def rename_workspace(self, workspace_id: str, name: str) -> WorkspaceRow:
        row = self.get_workspace(workspace_id)
        if row is None:
            raise KeyError(workspace_id)
        row.name = name.strip()
        row.updated_at = time.time()
        with self.conn:
            self.conn.execute(
                "UPDATE workspaces SET name = ?, updated_at = ? WHERE id = ?",
                (row.name, row.updated_at, row.id),
            )
        return row


class JobQueue:
    def __init__(self, db: Database) -> None:
        self.conn = db.conn

    def enqueue(self, workspace_id: str, path: str) -> int:
        with self.conn:
            cur = self.conn.execute(
                "INSERT INTO ingest_jobs (workspace_id, path, enqueued_at) VALUES (?, ?, ?)",
                (workspace_id, path, time.time()),
            )
        return int(cur.lastrowid)

    def claim(self) -> sqlite3.Row | None:
        with self.conn:
            row = self.conn.execute(
                "SELECT * FROM ingest_jobs WHERE status = 'queued' ORDER BY id LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            self.conn.execute(
                "UPDATE ingest_jobs SET status = 'running', attempts = attempts + 1 WHERE id = ?",
                (row["id"],),
            )
        return row

    def finish(self, job_id: int, error: str | None = None) -> None:
        with self.conn:
            self.conn.execute(
                "UPDATE ingest_jobs SET status = ?, error = ?, finished_at = ? WHERE id = ?",
                ("failed" if error else "done", error, time.time(), job_id),
            )

    def purge_finished(self, older_than_s: float = 14 * 24 * 3600) -> int:
        cutoff = time.time() - older_than_s
        with closing(self.conn.cursor()) as cur, self.conn:
            cur.execute(
                "DELETE FROM ingest_jobs WHERE status IN ('done', 'failed') AND finished_at < ?",
                (cutoff,),
            )
            return cur.rowcount
