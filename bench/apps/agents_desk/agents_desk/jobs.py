"""Background job queue for slow work (re-embedding, nightly reports)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Awaitable, Callable


@dataclass
class Job:
    job_id: str
    name: str
    payload: dict = field(default_factory=dict)
    status: str = "queued"
    enqueued_at: float = field(default_factory=time.time)
    finished_at: float | None = None


class JobQueue:
    def __init__(self) -> None:
        self.jobs: dict[str, Job] = {}
        self._pending: asyncio.Queue[str] = asyncio.Queue()

    def submit(self, job: Job) -> None:
        self.jobs[job.job_id] = job
        self._pending.put_nowait(job.job_id)

    async def work(self, handler: Callable[[Job], Awaitable[None]]) -> None:
        while not self._pending.empty():
            job = self.jobs[await self._pending.get()]
            job.status = "running"
            try:
                await handler(job)
                job.status = "done"
            except Exception:
                job.status = "failed"
            job.finished_at = time.time()

    def purge_finished(self, older_than: float = 3600.0) -> int:
        cutoff = time.time() - older_than
        old = [j.job_id for j in self.jobs.values() if j.finished_at and j.finished_at < cutoff]
        for job_id in old:
            self.jobs.pop(job_id)
        return len(old)
