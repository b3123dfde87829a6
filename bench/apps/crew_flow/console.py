"""Operator console: live status panel, background job queue and run history."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Callable
from uuid import uuid4

from rich.console import Console
from rich.live import Live
from rich.table import Table


@dataclass
class Widget:
    id: str
    title: str
    text: str = ""
    style: str = "white"


class StatusPanel:
    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console()
        self.widgets: OrderedDict[str, Widget] = OrderedDict()
        self._live: Live | None = None

    def add(self, widget_id: str, title: str) -> Widget:
        w = self.widgets.setdefault(widget_id, Widget(id=widget_id, title=title))
        return w

    def set_text(self, widget_id: str, text: str, style: str | None = None) -> None:
        w = self.widgets[widget_id]
        w.text = text if len(text) < 120 else text[:117] + "..."
        if style:
            w.style = style
        self.refresh()

    def _table(self) -> Table:
        table = Table(show_header=False, expand=True)
        for w in self.widgets.values():
            table.add_row(w.title, f"[{w.style}]{w.text}[/]")
        return table

    def __enter__(self) -> "StatusPanel":
        self._live = Live(self._table(), console=self.console, refresh_per_second=4)
        self._live.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._live is not None:
            self._live.__exit__(*exc)
            self._live = None

    def refresh(self) -> None:
        if self._live is not None:
            self._live.update(self._table())


class JobStatus(str, Enum):
    queued = "queued"
    running = "running"
    done = "done"
    failed = "failed"


@dataclass
class Job:
    fn: Callable[[], Any]
    id: str = field(default_factory=lambda: uuid4().hex[:8])
    status: JobStatus = JobStatus.queued
    finished_at: float | None = None
    error: str | None = None


class JobQueue:
    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def submit(self, fn: Callable[[], Any]) -> str:
        job = Job(fn=fn)
        with self._lock:
            self._jobs[job.id] = job
        threading.Thread(target=self._run, args=(job,), daemon=True).start()
        return job.id

    def _run(self, job: Job) -> None:
        job.status = JobStatus.running
        try:
            job.fn()
            job.status = JobStatus.done
        except Exception as exc:  # noqa: BLE001
            job.status, job.error = JobStatus.failed, repr(exc)
        job.finished_at = time.time()

    def purge_finished(self, max_age_s: float = 3_600.0) -> int:
        cutoff = time.time() - max_age_s
        with self._lock:
            old = [
                jid
                for jid, j in self._jobs.items()
                if j.status in (JobStatus.done, JobStatus.failed) and (j.finished_at or 0) < cutoff
            ]
            for jid in old:
                del self._jobs[jid]
        return len(old)


class RunRepository:
    def __init__(self, path: Path = Path(".crew_flow/runs.db")) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS runs (id TEXT PRIMARY KEY, question TEXT, status TEXT,"
            " answer TEXT, updated_at REAL)"
        )

    def create(self, run_id: str, question: str) -> None:
        with self._db:
            self._db.execute(
                "INSERT INTO runs (id, question, status, answer, updated_at) VALUES (?, ?, 'running', '', ?)",
                (run_id, question, time.time()),
            )

    def update_status(self, run_id: str, status: str, answer: str | None = None) -> None:
        with self._db:
            if answer is None:
                self._db.execute(
                    "UPDATE runs SET status = ?, updated_at = ? WHERE id = ?",
                    (status, time.time(), run_id),
                )
            else:
                self._db.execute(
                    "UPDATE runs SET status = ?, answer = ?, updated_at = ? WHERE id = ?",
                    (status, answer, time.time(), run_id),
                )
