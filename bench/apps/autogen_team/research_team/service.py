"""Outbound integrations: the team's HTTP publishing endpoint and the ingest job queue."""

from __future__ import annotations

import json
import time
import urllib.request
import uuid
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Deque, Dict, List, Optional

from .notes import ResearchNote


def note_payload(note: ResearchNote) -> Dict[str, Any]:
    return {"id": note.note_id, "version": note.version, "text": note.text, "source": note.source_url}


def prepare_publish_body(body: Dict[str, Any], max_chars: int = 4000) -> Dict[str, Any]:
    body["text"] = body["text"][:max_chars]
    body["id"] = body.get("id") or uuid.uuid4().hex
    body.setdefault("client", "research-team/0.3")
    return body


def publish(url: str, body: Dict[str, Any], timeout: float = 10.0) -> int:
    data = json.dumps(prepare_publish_body(body)).encode("utf-8")
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return resp.status


@dataclass
class IngestJob:
    job_id: str
    url: str
    status: str = "queued"
    attempts: int = 0
    error: str = ""
    enqueued_at: float = field(default_factory=time.time)
    finished_at: Optional[float] = None


class IngestQueue:
    def __init__(self) -> None:
        self._pending: Deque[IngestJob] = deque()
        self._jobs: Dict[str, IngestJob] = {}

    def submit(self, url: str) -> IngestJob:
        job = IngestJob(job_id=uuid.uuid4().hex[:8], url=url)
        self._jobs[job.job_id] = job
        self._pending.append(job)
        return job

    def next(self) -> Optional[IngestJob]:
        return self._pending.popleft() if self._pending else None

    def fail(self, job_id: str, error: str) -> None:
        job = self._jobs[job_id]
        job.status = "retrying" if job.attempts < 3 else "failed"
        job.error = error
        job.attempts += 1
        if job.status == "retrying":
            self._pending.append(job)

    def finish(self, job_id: str) -> None:
        job = self._jobs[job_id]
        job.status = "done"
        job.finished_at = time.time()

    def purge_finished(self, max_age_s: float = 600.0) -> List[str]:
        now = time.time()
        old = [j.job_id for j in self._jobs.values() if j.finished_at and now - j.finished_at > max_age_s]
        for job_id in old:
            del self._jobs[job_id]
        return old
