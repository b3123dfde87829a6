"""Periodic maintenance: tombstone collection and background jobs."""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from .buffer import ContextBuffer, span_meta
from .decision_log import DecisionLog
from .settings import settings


def purge_stale_notes(store: ContextBuffer, ttl_hours: int | None = None) -> list[str]:
    ttl = (ttl_hours or settings.tombstone_ttl_hours) * 3600
    now = time.time()
    expired = [sid for sid, note in store.notes.items() if note.tombstoned_at and now - note.tombstoned_at > ttl]
    for sid in expired:
        del store.notes[sid]
    return expired


def collect_tombstones(store: ContextBuffer, log: DecisionLog, ttl_hours: int | None = None) -> list[str]:
    ttl = (ttl_hours or settings.tombstone_ttl_hours) * 3600
    now = time.time()
    collected: list[str] = []
    for tid, tomb in list(store.tombstones.items()):
        if now - span_meta(tomb).get("tombstoned_at", now) < ttl:
            continue
        if store.holders_of(tid) or log.for_target(tid):
            continue
        del store.tombstones[tid]
        collected.append(tid)
    return collected


@dataclass(order=True)
class Job:
    run_at: float
    id: str = field(compare=False)
    name: str = field(compare=False)
    payload: dict[str, Any] = field(compare=False, default_factory=dict)
    attempts: int = field(compare=False, default=0)


class JobQueue:
    def __init__(self) -> None:
        self._heap: list[Job] = []
        self._handlers: dict[str, Callable[[dict[str, Any]], None]] = {}

    def register(self, name: str, handler: Callable[[dict[str, Any]], None]) -> None:
        self._handlers[name] = handler

    def submit(self, job: Job) -> None:
        heapq.heappush(self._heap, job)

    def run_due(self, now: float | None = None, max_attempts: int = 3) -> int:
        now = now or time.time()
        ran = 0
        while self._heap and self._heap[0].run_at <= now:
            job = heapq.heappop(self._heap)
            try:
                self._handlers[job.name](job.payload)
                ran += 1
            except Exception as exc:  # noqa: BLE001
                job.attempts += 1
                job.payload["last_error"] = str(exc)
                if job.attempts < max_attempts:
                    job.run_at = now + 30 * job.attempts
                    heapq.heappush(self._heap, job)
        return ran
