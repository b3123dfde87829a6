"""Periodic housekeeping: tombstone collection and the background job queue."""

from __future__ import annotations

import time
import uuid
from collections import defaultdict
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Optional

from .buffer import ContextBuffer


class HolderRegistry:
    """Who still references a span (citations, offset maps, open tool calls)."""

    def __init__(self) -> None:
        self._holders: dict[str, set[str]] = defaultdict(set)

    def hold(self, span_id: str, holder: str) -> None:
        self._holders[span_id].add(holder)

    def release(self, span_id: str, holder: str) -> None:
        self._holders[span_id].discard(holder)
        if not self._holders[span_id]:
            del self._holders[span_id]

    def is_held(self, span_id: str) -> bool:
        return bool(self._holders.get(span_id))


def collect_tombstones(
    buffer: ContextBuffer, ttl_seconds: float, now: Optional[float] = None
) -> list[str]:
    now = time.time() if now is None else now
    expired = [
        t.span_id
        for t in buffer.tombstones()
        if t.tombstoned_at is not None and now - t.tombstoned_at > ttl_seconds
    ]
    for span_id in expired:
        buffer.drop_tombstone(span_id)
    return expired


def collect_unheld(
    buffer: ContextBuffer,
    holders: HolderRegistry,
    ttl_seconds: float,
    now: Optional[float] = None,
) -> list[str]:
    now = time.time() if now is None else now
    collected = []
    for t in buffer.tombstones():
        if t.tombstoned_at is None or now - t.tombstoned_at <= ttl_seconds:
            continue
        if holders.is_held(t.span_id):
            continue
        buffer.drop_tombstone(t.span_id)
        collected.append(t.span_id)
    return collected


@dataclass
class Job:
    kind: str
    payload: dict[str, Any]
    job_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    status: str = "queued"
    created_at: float = field(default_factory=time.time)
    finished_at: Optional[float] = None
    attempts: int = 0


class JobQueue:
    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}

    def submit(self, kind: str, **payload: Any) -> Job:
        job = Job(kind=kind, payload=payload)
        self._jobs[job.job_id] = job
        return job

    def next_queued(self) -> Optional[Job]:
        for job in self._jobs.values():
            if job.status == "queued":
                job.status = "running"
                job.attempts += 1
                return job
        return None

    def finish(self, job_id: str, ok: bool = True) -> None:
        job = self._jobs[job_id]
        job.status = "done" if ok else "failed"
        job.finished_at = time.time()

    def purge_finished(self, max_age_seconds: float, now: Optional[float] = None) -> int:
        now = time.time() if now is None else now
        before = len(self._jobs)
        self._jobs = {
            jid: job
            for jid, job in self._jobs.items()
            if not (
                job.status in ("done", "failed")
                and job.finished_at is not None
                and now - job.finished_at > max_age_seconds
            )
        }
        return before - len(self._jobs)
