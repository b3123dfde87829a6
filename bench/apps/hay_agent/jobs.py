from __future__ import annotations

import queue
import sqlite3
from dataclasses import dataclass


@dataclass
class Job:
    id: str
    text: str
    attempts: int = 0


JOBS: "queue.Queue[Job]" = queue.Queue()


def retry(job: Job) -> None:
    job.text = job.text + " (retry)"
    job.attempts += 1
    JOBS.put(job)


def rename_user(conn: sqlite3.Connection, user_id: str, name: str) -> None:
    conn.execute("UPDATE users SET name = ? WHERE id = ?", (name, user_id))
