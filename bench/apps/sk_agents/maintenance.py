"""Periodic housekeeping: tombstone compaction and the background job queue."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import Enum

from sk_agents.decision_log import DecisionLog
from sk_agents.spans import SpanStore


def sweep_tombstones(store: SpanStore, log: DecisionLog, ttl_s: float, now: float | None = None) -> list[str]:
    now = time.time() if now is None else now
    expired = [s for s in store.tombstones() if now - (s.tombstoned_at or now) >= ttl_s]
    if not expired:
        return []
    log.record(
        action="gc",
        span_ids=[s.span_id for s in expired],
        rationale=f"tombstoned for more than {ttl_s:.0f}s",
        evidence=[s.content_hash for s in expired],
    )
    for s in expired:
        store.discard(s.span_id)
    return [s.span_id for s in expired]


def compact_tombstones(store: SpanStore, log: DecisionLog, ttl_s: float, now: float | None = None) -> list[str]:
    now = time.time() if now is None else now
    expired = [
        s
        for s in store.tombstones()
        if now - (s.tombstoned_at or now) >= ttl_s and not store.holders(s.span_id)
    ]
    if not expired:
        return []
    log.record(
        action="gc",
        span_ids=[s.span_id for s in expired],
        rationale=f"tombstoned for more than {ttl_s:.0f}s with no holders",
        evidence=[s.content_hash for s in expired],
    )
    for s in expired:
        store.discard(s.span_id)
    return [s.span_id for s in expired]


class JobStatus(str, Enum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


@dataclass
class Job:
    job_id: str
    kind: str
    status: JobStatus = JobStatus.QUEUED
    created_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    result: str | None = None


class JobQueue:
    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}

    def submit(self, job: Job) -> None:
        self._jobs[job.job_id] = job

    def finish(self, job_id: str, result: str, ok: bool = True) -> None:
        job = self._jobs[job_id]
        job.status = JobStatus.DONE if ok else JobStatus.FAILED
        job.result = result
        job.finished_at = time.time()

    def purge_finished(self, ttl_s: float, now: float | None = None) -> int:
        now = time.time() if now is None else now
        stale = [
            j.job_id
            for j in self._jobs.values()
            if j.status in (JobStatus.DONE, JobStatus.FAILED) and now - (j.finished_at or now) > ttl_s
        ]
        for job_id in stale:
            del self._jobs[job_id]
        return len(stale)
