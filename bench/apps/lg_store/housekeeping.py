"""Periodic clean-up: tombstoned spans and the background job table."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .buffer import SpanBuffer

HolderProbe = Callable[[], Iterable[str]]


def sweep_tombstones(buffer: SpanBuffer, max_age_s: float) -> int:
    now = time.time()
    removed = 0
    for item in list(buffer.iter_items(tombstoned=True)):
        if now - item.updated_at.timestamp() > max_age_s:
            buffer.store.delete(buffer.ns, item.key)
            removed += 1
    return removed


def sweep_unheld(buffer: SpanBuffer, probes: Iterable[HolderProbe]) -> int:
    held: set[str] = set()
    for probe in probes:
        held.update(probe())
    removed = 0
    for item in list(buffer.iter_items(tombstoned=True)):
        if item.key in held:
            continue
        if any(item.key in (other.value.get("source_ids") or []) for other in buffer.iter_items()):
            continue
        buffer.store.delete(buffer.ns, item.key)
        removed += 1
    return removed


@dataclass
class Job:
    job_id: str
    kind: str
    payload: dict
    status: str = "queued"
    finished_ts: float | None = None


@dataclass
class JobQueue:
    jobs: dict[str, Job] = field(default_factory=dict)

    def submit(self, job: Job) -> None:
        self.jobs[job.job_id] = job

    def next(self) -> Job | None:
        for job in self.jobs.values():
            if job.status == "queued":
                job.status = "running"
                return job
        return None

    def finish(self, job_id: str) -> None:
        job = self.jobs[job_id]
        job.status = "done"
        job.finished_ts = time.time()

    def purge_finished(self, older_than_s: float) -> int:
        cutoff = time.time() - older_than_s
        stale = [
            jid
            for jid, job in self.jobs.items()
            if job.status == "done" and job.finished_ts is not None and job.finished_ts < cutoff
        ]
        for jid in stale:
            del self.jobs[jid]
        return len(stale)
