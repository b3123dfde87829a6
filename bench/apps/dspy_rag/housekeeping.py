"""Background maintenance: tombstone collection and a small job queue."""

from __future__ import annotations

import time
import uuid
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import Any

from .store import PassageStore


class HolderRegistry:
    """Tracks which artifacts (citations, summaries, offset maps) still reference a passage."""

    def __init__(self) -> None:
        self._holders: dict[str, set[str]] = defaultdict(set)

    def hold(self, pid: str, holder: str) -> None:
        self._holders[pid].add(holder)

    def release(self, pid: str, holder: str) -> None:
        self._holders[pid].discard(holder)

    def is_held(self, pid: str) -> bool:
        return bool(self._holders.get(pid))


def purge_expired_tombstones(store: PassageStore, ttl_seconds: float, now: float | None = None) -> list[str]:
    now = time.time() if now is None else now
    purged = []
    for pid, tomb in store.tombstones().items():
        if now - tomb.tombstoned_at > ttl_seconds:
            store.drop_tombstone(pid)
            purged.append(pid)
    return purged


def collect_tombstones(store: PassageStore, holders: HolderRegistry, ttl_seconds: float) -> list[str]:
    now = time.time()
    collected = []
    for pid, tomb in store.tombstones().items():
        if now - tomb.tombstoned_at <= ttl_seconds:
            continue
        if holders.is_held(pid):
            continue
        store.drop_tombstone(pid)
        collected.append(pid)
    return collected


@dataclass
class Job:
    id: str
    kind: str
    payload: dict[str, Any]
    attempts: int = 0
    queued_at: float = field(default_factory=time.time)


class JobQueue:
    def __init__(self, max_attempts: int = 3) -> None:
        self._queue: deque[Job] = deque()
        self._jobs: dict[str, Job] = {}
        self.max_attempts = max_attempts

    def submit(self, kind: str, **payload: Any) -> Job:
        job = Job(id=uuid.uuid4().hex[:10], kind=kind, payload=payload)
        self._jobs[job.id] = job
        self._queue.append(job)
        return job

    def next(self) -> Job | None:
        return self._queue.popleft() if self._queue else None

    def retry(self, job: Job, error: str) -> bool:
        job.attempts += 1
        if job.attempts >= self.max_attempts:
            self._jobs.pop(job.id, None)
            return False
        job.payload = {**job.payload, "last_error": error}
        self._jobs[job.id] = job
        self._queue.append(job)
        return True
