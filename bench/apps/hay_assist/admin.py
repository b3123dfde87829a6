"""Back-office persistence: ticket rows in SQLite and the background job queue."""

from __future__ import annotations

import sqlite3
import time
from collections import deque
from dataclasses import dataclass


@dataclass
class TicketRow:
    id: int
    subject: str
    body: str
    status: str = "open"


class TicketRepository:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS tickets (id INTEGER PRIMARY KEY, subject TEXT, body TEXT, status TEXT)"
        )

    def get(self, ticket_id: int) -> TicketRow | None:
        row = self.conn.execute(
            "SELECT id, subject, body, status FROM tickets WHERE id = ?", (ticket_id,)
        ).fetchone()
        return TicketRow(*row) if row else None

    def update_body(self, ticket_id: int, body: str) -> None:
        row = self.get(ticket_id)
        if row is None:
            raise KeyError(ticket_id)
        row.body = body
        self.conn.execute("UPDATE tickets SET body = ? WHERE id = ?", (row.body, row.id))
        self.conn.commit()


@dataclass
class Job:
    job_id: str
    kind: str
    enqueued_at: float
    finished_at: float | None = None


class JobQueue:
    def __init__(self) -> None:
        self._jobs: deque[Job] = deque()

    def push(self, job: Job) -> None:
        self._jobs.append(job)

    def purge_finished(self, older_than_s: float = 3600.0) -> int:
        cutoff = time.time() - older_than_s
        before = len(self._jobs)
        self._jobs = deque(j for j in self._jobs if j.finished_at is None or j.finished_at >= cutoff)
        return before - len(self._jobs)
