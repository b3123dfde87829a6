from __future__ import annotations

import asyncio
import enum
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Awaitable, Callable

import httpx

from .config import Settings


class JobState(str, enum.Enum):
    queued = "queued"
    running = "running"
    done = "done"
    failed = "failed"


@dataclass
class Job:
    kind: str
    payload: dict[str, Any]
    id: str = field(default_factory=lambda: f"job-{uuid.uuid4().hex[:12]}")
    state: JobState = JobState.queued
    finished_at: datetime | None = None
    error: str | None = None


class JobQueue:
    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}
        self._pending: asyncio.Queue[str] = asyncio.Queue()

    async def submit(self, kind: str, **payload: Any) -> Job:
        job = Job(kind=kind, payload=payload)
        self._jobs[job.id] = job
        await self._pending.put(job.id)
        return job

    async def worker(self, handlers: dict[str, Callable[..., Awaitable[None]]]) -> None:
        while True:
            jid = await self._pending.get()
            job = self._jobs[jid]
            job.state = JobState.running
            try:
                await handlers[job.kind](**job.payload)
                job.state = JobState.done
            except Exception as exc:  # noqa: BLE001
                job.state, job.error = JobState.failed, repr(exc)
            job.finished_at = datetime.now(timezone.utc)
            self._pending.task_done()

    def purge_finished(self, older_than: timedelta) -> int:
        cutoff = datetime.now(timezone.utc) - older_than
        stale = [
            jid
            for jid, j in self._jobs.items()
            if j.state in (JobState.done, JobState.failed) and j.finished_at and j.finished_at < cutoff
        ]
        for jid in stale:
            del self._jobs[jid]
        return len(stale)


async def post_incident_update(settings: Settings, incident_id: str, body: dict[str, Any]) -> int:
    if not settings.webhook_url:
        return 0
    payload = {"incident_id": incident_id, **body}
    text = payload.get("text", "")
    if len(text) > settings.webhook_max_chars:
        payload["text"] = text[: settings.webhook_max_chars - 1] + "\u2026"
        payload["truncated"] = True
    async with httpx.AsyncClient(timeout=10) as http:
        resp = await http.post(settings.webhook_url, json=payload)
        return resp.status_code
