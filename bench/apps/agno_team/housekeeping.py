"""Periodic housekeeping: tombstone sweeps and the background job queue."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional
from uuid import uuid4

from agno_team.buffer import SpanBuffer
from agno_team.decision_log import DecisionLog


def sweep_tombstones(buffer: SpanBuffer, max_age_s: float) -> List[str]:
    now = time.time()
    expired = [
        s.span_id
        for s in buffer.all()
        if s.tombstoned and now - (s.tombstoned_at or s.created_at) > max_age_s
    ]
    for span_id in expired:
        buffer.remove(span_id)
    return expired


def sweep_unheld_tombstones(buffer: SpanBuffer, log: DecisionLog, max_age_s: float) -> List[str]:
    now = time.time()
    collectable = [
        s
        for s in buffer.all()
        if s.tombstoned
        and now - (s.tombstoned_at or s.created_at) > max_age_s
        and not buffer.holders_of(s.span_id)
    ]
    for span in collectable:
        log.record(op="gc", target_ids=[span.span_id], rationale="tombstoned, unheld", evidence=[span.content_hash])
    for span in collectable:
        buffer.remove(span.span_id)
    return [s.span_id for s in collectable]


@dataclass
class Job:
    name: str
    payload: Dict[str, str]
    id: str = field(default_factory=lambda: uuid4().hex)
    enqueued_at: float = field(default_factory=time.time)
    finished_at: Optional[float] = None
    done: bool = False


class JobQueue:
    def __init__(self) -> None:
        self._jobs: List[Job] = []

    def enqueue(self, name: str, **payload: str) -> Job:
        job = Job(name=name, payload=payload)
        self._jobs.append(job)
        return job

    def next_pending(self) -> Optional[Job]:
        return next((j for j in self._jobs if not j.done), None)

    def complete(self, job: Job) -> None:
        job.done = True
        job.finished_at = time.time()

    def purge_finished(self, ttl_s: float) -> int:
        now = time.time()
        before = len(self._jobs)
        self._jobs = [j for j in self._jobs if not (j.done and now - (j.finished_at or now) > ttl_s)]
        return before - len(self._jobs)
