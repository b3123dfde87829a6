"""Background job queue (ingest, re-embed, export)."""
from __future__ import annotations

import heapq
import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


@dataclass(order=True)
class Job:
    priority: int
    id: str = field(compare=False)
    kind: str = field(compare=False, default="ingest")
    payload: Dict[str, Any] = field(compare=False, default_factory=dict)
    status: str = field(compare=False, default="queued")
    attempts: int = field(compare=False, default=0)
    created_at: float = field(compare=False, default_factory=time.time)
    finished_at: Optional[float] = field(compare=False, default=None)


class JobQueue:
    def __init__(self) -> None:
        self._heap: List[Job] = []
        self._jobs: Dict[str, Job] = {}
        self._ids = itertools.count(1)

    def submit(self, kind: str, payload: Dict[str, Any], priority: int = 5) -> Job:
        job = Job(priority=priority, id=f"job-{next(self._ids)}", kind=kind, payload=payload)
        self._jobs[job.id] = job
        heapq.heappush(self._heap, job)
        return job

    def next(self) -> Optional[Job]:
        while self._heap:
            job = heapq.heappop(self._heap)
            if job.status == "queued":
                job.status = "running"
                return job
        return None

    def retry(self, job_id: str, error: str) -> Job:
        job = self._jobs[job_id]
        job.attempts += 1
        job.payload = {**job.payload, "last_error": error}
        job.status = "queued"
        heapq.heappush(self._heap, job)
        return job

    def finish(self, job_id: str) -> None:
        job = self._jobs[job_id]
        job.status = "done"
        job.finished_at = time.time()

    def purge_finished(self, older_than_s: float) -> int:
        cutoff = time.time() - older_than_s
        old = [j.id for j in self._jobs.values() if j.finished_at and j.finished_at < cutoff]
        for jid in old:
            del self._jobs[jid]
        return len(old)
