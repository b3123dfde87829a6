"""Periodic maintenance: tombstone collection, log compaction, job queue."""
from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional

from .buffer import ContextBuffer
from .decision_log import DecisionLog


def sweep_tombstones(buffer: ContextBuffer, ttl_s: float, now: Optional[float] = None) -> int:
    now = now or time.time()
    expired = [sid for sid, t in buffer.tombstones.items() if now - t.created_at > ttl_s]
    for sid in expired:
        del buffer.tombstones[sid]
    return len(expired)


def collect_tombstones(buffer: ContextBuffer, ttl_s: float, now: Optional[float] = None) -> int:
    now = now or time.time()
    collected = 0
    for sid, tomb in list(buffer.tombstones.items()):
        if now - tomb.created_at <= ttl_s:
            continue
        if buffer.holders(sid):
            continue
        if tomb.replaced_by and buffer.holders(tomb.replaced_by):
            continue
        buffer.tombstones.pop(sid)
        collected += 1
    return collected


def compact_log(log: DecisionLog, keep_last: int = 500) -> int:
    dropped = max(len(log.entries) - keep_last, 0)
    if dropped:
        log.entries = log.entries[-keep_last:]
        for entry in log.entries:
            entry["excerpt"] = str(entry.get("excerpt", ""))[:80]
    return dropped


@dataclass(order=True)
class Job:
    run_at: float
    id: str = field(compare=False)
    kind: str = field(compare=False)
    payload: Dict[str, Any] = field(compare=False, default_factory=dict)
    attempts: int = field(compare=False, default=0)
    status: str = field(compare=False, default="queued")


class JobQueue:
    def __init__(self, handlers: Dict[str, Callable[[Dict[str, Any]], None]], max_attempts: int = 3) -> None:
        self.handlers = handlers
        self.max_attempts = max_attempts
        self._heap: List[Job] = []
        self.jobs: Dict[str, Job] = {}

    def submit(self, job: Job) -> None:
        self.jobs[job.id] = job
        heapq.heappush(self._heap, job)

    def run_due(self, now: Optional[float] = None) -> int:
        now = now or time.time()
        ran = 0
        while self._heap and self._heap[0].run_at <= now:
            job = heapq.heappop(self._heap)
            try:
                self.handlers[job.kind](job.payload)
                job.status = "done"
            except Exception as exc:
                job.attempts += 1
                job.payload = {**job.payload, "last_error": str(exc)}
                if job.attempts < self.max_attempts:
                    job.status = "retry"
                    job.run_at = now + 2 ** job.attempts
                    self.jobs[job.id] = job
                    heapq.heappush(self._heap, job)
                else:
                    job.status = "failed"
            ran += 1
        return ran
