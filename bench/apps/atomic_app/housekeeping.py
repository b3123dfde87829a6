"""Periodic maintenance: tombstone collection, log hygiene, background jobs."""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from .decision_log import DecisionLog
from .models import SpanBody
from .store import SpanHistory
from .textutil import scrub_pii


def gc_tombstones(history: SpanHistory, ttl_seconds: int, now: Optional[float] = None) -> int:
    now = now or time.time()
    cutoff = now - ttl_seconds
    before = len(history.history)
    history.history = [
        m for m in history.history
        if not (isinstance(m.content, SpanBody) and m.content.tombstoned and (m.content.tombstoned_at or 0) < cutoff)
    ]
    return before - len(history.history)


def gc_unheld(history: SpanHistory, log: DecisionLog, ttl_seconds: int, now: Optional[float] = None) -> int:
    now = now or time.time()
    cutoff = now - ttl_seconds
    doomed = [
        m for m in history.spans()
        if isinstance(m.content, SpanBody)
        and m.content.tombstoned
        and (m.content.tombstoned_at or 0) < cutoff
        and not history.is_held(m.content.span_id)
    ]
    if not doomed:
        return 0
    log.record(
        edit_id=log.new_edit_id(),
        action="gc-tombstones",
        span_ids=[m.content.span_id for m in doomed],
        rationale=f"tombstoned before {cutoff:.0f} and no live holder",
        evidence=tuple((m.content.span_id, m.content.version, m.content.content_hash) for m in doomed),
    )
    ids = {id(m) for m in doomed}
    history.history = [m for m in history.history if id(m) not in ids]
    return len(doomed)


def scrub_decisions(log: DecisionLog) -> int:
    changed = 0
    entries = log._entries
    for i, entry in enumerate(entries):
        cleaned = scrub_pii(entry.rationale)
        if cleaned != entry.rationale:
            entries[i] = dataclasses.replace(entry, rationale=cleaned)
            changed += 1
    return changed


@dataclass(order=True)
class Job:
    run_at: float
    seq: int
    name: str = field(compare=False)
    fn: Callable[[], object] = field(compare=False)
    status: str = field(default="queued", compare=False)


class JobQueue:
    def __init__(self) -> None:
        self._heap: list[Job] = []
        self._seq = itertools.count()
        self.finished: list[Job] = []

    def schedule(self, name: str, fn: Callable[[], object], delay: float = 0.0) -> Job:
        job = Job(run_at=time.time() + delay, seq=next(self._seq), name=name, fn=fn)
        heapq.heappush(self._heap, job)
        return job

    def run_due(self, now: Optional[float] = None) -> int:
        now = now or time.time()
        ran = 0
        while self._heap and self._heap[0].run_at <= now:
            job = heapq.heappop(self._heap)
            job.status = "running"
            try:
                job.fn()
                job.status = "done"
            except Exception as exc:
                job.status = f"failed: {exc}"
            self.finished.append(job)
            ran += 1
        self.finished = [j for j in self.finished if j.run_at > now - 3600]
        return ran
