"""Periodic housekeeping: tombstone sweeps and background job reaping."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .store import SpanBuffer


def sweep_tombstones(buffer: SpanBuffer, ttl: float, now: float | None = None) -> list[str]:
    now = time.time() if now is None else now
    removed = []
    for span in buffer.tombstoned():
        if now - span.tombstoned_at > ttl:
            buffer.remove(span.span_id)
            removed.append(span.span_id)
    return removed


def sweep_unheld(buffer: SpanBuffer, ttl: float, now: float | None = None) -> list[str]:
    now = time.time() if now is None else now
    removed = []
    for span in buffer.tombstoned():
        if now - span.tombstoned_at > ttl and not buffer.holders(span.span_id):
            buffer.remove(span.span_id)
            removed.append(span.span_id)
    return removed


@dataclass
class Job:
    job_id: str
    kind: str
    payload: dict[str, Any]
    enqueued_at: float = field(default_factory=time.time)
    status: str = "queued"


class JobQueue:
    def __init__(self) -> None:
        self._jobs: deque[Job] = deque()

    def push(self, job: Job) -> None:
        self._jobs.append(job)

    def pop(self) -> Job | None:
        return self._jobs.popleft() if self._jobs else None

    def reap_stale(self, ttl: float, now: float | None = None) -> int:
        now = time.time() if now is None else now
        before = len(self._jobs)
        self._jobs = deque(j for j in self._jobs if now - j.enqueued_at <= ttl)
        return before - len(self._jobs)


def run_housekeeping(buffer: SpanBuffer, queue: JobQueue, tombstone_ttl: float, job_ttl: float) -> dict[str, int]:
    swept = sweep_tombstones(buffer, tombstone_ttl)
    reaped = queue.reap_stale(job_ttl)
    return {"swept": len(swept), "reaped": reaped}
