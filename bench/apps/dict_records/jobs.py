"""Background jobs (re-index, compaction) and the session notes table in SQLite."""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from collections import deque
from typing import Any, Callable

SCHEMA = """
CREATE TABLE IF NOT EXISTS notes (
    id TEXT PRIMARY KEY,
    session TEXT NOT NULL,
    body TEXT NOT NULL,
    updated_at REAL NOT NULL
);
"""


class JobQueue:
    def __init__(self):
        self.jobs: dict[str, dict] = {}
        self.pending: deque[str] = deque()
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], *args: Any, kind: str = "task") -> str:
        jid = uuid.uuid4().hex
        with self._lock:
            self.jobs[jid] = {"id": jid, "kind": kind, "fn": fn, "args": args,
                              "state": "queued", "submitted_at": time.time()}
            self.pending.append(jid)
        return jid

    def run_next(self) -> dict | None:
        with self._lock:
            if not self.pending:
                return None
            job = self.jobs[self.pending.popleft()]
            job["state"] = "running"
        try:
            job["result"] = job["fn"](*job["args"])
            job["state"] = "done"
        except Exception as exc:  # noqa: BLE001
            job["error"] = repr(exc)
            job["state"] = "failed"
        job["finished_at"] = time.time()
        return job

    def purge_finished(self, max_age: float = 3600.0) -> int:
        cutoff = time.time() - max_age
        with self._lock:
            old = [
                jid for jid, j in self.jobs.items()
                if j["state"] in ("done", "failed") and j.get("finished_at", 0) < cutoff
            ]
            for jid in old:
                del self.jobs[jid]
        return len(old)


class NotesRepo:
    def __init__(self, db_path: str):
        self.conn = sqlite3.connect(db_path, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        self.conn.executescript(SCHEMA)

    def get(self, note_id: str) -> dict | None:
        row = self.conn.execute("SELECT * FROM notes WHERE id = ?", (note_id,)).fetchone()
        return dict(row) if row else None

    def create(self, session: str, body: str) -> str:
        nid = uuid.uuid4().hex[:12]
        with self.conn:
            self.conn.execute(
                "INSERT INTO notes (id, session, body, updated_at) VALUES (?, ?, ?, ?)",
                (nid, session, body, time.time()),
            )
        return nid

    def update_body(self, note_id: str, body: str) -> None:
        with self.conn:
            self.conn.execute(
                "UPDATE notes SET body = ?, updated_at = ? WHERE id = ?",
                (body, time.time(), note_id),
            )
