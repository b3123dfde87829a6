"""Periodic maintenance: tombstone collection, log rotation, ingest queue."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from kernel_notes.buffer import NoteBuffer
from kernel_notes.decision_log import DecisionLog

logger = logging.getLogger(__name__)


class SpanHolder(Protocol):
    def referenced_span_ids(self) -> set[str]: ...


def sweep_tombstones(buffer: NoteBuffer, log: DecisionLog, ttl_s: float, now: float | None = None) -> list[str]:
    now = time.time() if now is None else now
    expired = [s.span_id for s in buffer.all() if s.is_tombstoned and now - (s.tombstoned_at or now) > ttl_s]
    if not expired:
        return []
    log.record("gc", expired, f"tombstoned for more than {ttl_s:.0f}s")
    for span_id in expired:
        buffer.drop(span_id)
    return expired


def collect_unreferenced(buffer: NoteBuffer, log: DecisionLog, holders: Iterable[SpanHolder]) -> list[str]:
    held: set[str] = set()
    for holder in holders:
        held |= holder.referenced_span_ids()
    doomed = [s.span_id for s in buffer.all() if s.is_tombstoned and s.span_id not in held]
    if not doomed:
        return []
    log.record("gc", doomed, "tombstoned and no registered holder refers to it")
    for span_id in doomed:
        buffer.drop(span_id)
    return doomed


def trim_decision_log(log: DecisionLog, keep_last: int = 2000) -> int:
    """Keep the in-memory log bounded for long sessions."""
    overflow = len(log.entries) - keep_last
    if overflow <= 0:
        return 0
    log.entries[:] = log.entries[overflow:]
    logger.info("decision log trimmed by %d entries", overflow)
    return overflow


@dataclass
class IngestJob:
    path: str
    enqueued_at: float = field(default_factory=time.time)


class IngestQueue:
    def __init__(self, max_age_s: float = 900.0) -> None:
        self.pending: list[IngestJob] = []
        self._max_age_s = max_age_s

    def purge_expired(self, now: float | None = None) -> int:
        now = time.time() if now is None else now
        before = len(self.pending)
        self.pending = [j for j in self.pending if now - j.enqueued_at <= self._max_age_s]
        return before - len(self.pending)
