"""Ops side of the context store: tombstone collection, log rotation, job cleanup, dashboard."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from enum import Enum

from .decisions import DecisionLog
from .spans import ContextStore, HolderRegistry
from .tokens import count_tokens

log = logging.getLogger(__name__)

MAX_LOG_ENTRIES = 5_000


def sweep_tombstones(store: ContextStore, max_age: timedelta = timedelta(hours=6)) -> int:
    cutoff = datetime.now(timezone.utc) - max_age
    stale = [s.span_id for s in store.tombstoned() if s.tombstoned_at and s.tombstoned_at < cutoff]
    return store.delete_many(stale)


def collect_tombstones(
    store: ContextStore,
    holders: HolderRegistry,
    max_age: timedelta = timedelta(hours=6),
) -> list[str]:
    cutoff = datetime.now(timezone.utc) - max_age
    freed = []
    for s in store.tombstoned():
        if s.tombstoned_at is None or s.tombstoned_at >= cutoff:
            continue
        if holders.is_held(s.span_id):
            log.debug("keeping %s, held by %s", s.span_id, sorted(holders.holders_of(s.span_id)))
            continue
        store.delete(s.span_id)
        freed.append(s.span_id)
    return freed


def rotate_decisions(decisions: DecisionLog, keep: int = MAX_LOG_ENTRIES) -> int:
    overflow = len(decisions._entries) - keep
    if overflow <= 0:
        return 0
    del decisions._entries[:overflow]
    return overflow


class JobState(str, Enum):
    queued = "queued"
    running = "running"
    done = "done"
    failed = "failed"


@dataclass
class Job:
    job_id: str
    kind: str
    state: JobState = JobState.queued
    finished_at: datetime | None = None
    payload: dict = field(default_factory=dict)


class JobBoard:
    """Tracks background jobs (re-embedding, compaction) for the ops dashboard."""

    def __init__(self) -> None:
        self.jobs: dict[str, Job] = {}

    def finish(self, job_id: str, ok: bool = True) -> None:
        job = self.jobs[job_id]
        job.state = JobState.done if ok else JobState.failed
        job.finished_at = datetime.now(timezone.utc)

    def purge_finished(self, older_than: timedelta = timedelta(days=1)) -> int:
        cutoff = datetime.now(timezone.utc) - older_than
        old = [
            jid
            for jid, j in self.jobs.items()
            if j.state in (JobState.done, JobState.failed) and j.finished_at and j.finished_at < cutoff
        ]
        for jid in old:
            del self.jobs[jid]
        return len(old)


async def maintenance_loop(
    store: ContextStore,
    holders: HolderRegistry,
    decisions: DecisionLog,
    board: JobBoard,
    every: float = 600.0,
) -> None:
    while True:
        freed = collect_tombstones(store, holders)
        sweep_tombstones(store, max_age=timedelta(days=2))
        rotate_decisions(decisions)
        board.purge_finished()
        if freed:
            log.info("freed %d tombstones", len(freed))
        await asyncio.sleep(every)


@dataclass
class Widget:
    widget_id: str
    text: str
    style: str = "default"
    dirty: bool = False


@dataclass
class StatusPanel:
    widgets: dict[str, Widget] = field(default_factory=dict)

    def add(self, widget_id: str, text: str = "") -> Widget:
        w = self.widgets[widget_id] = Widget(widget_id, text)
        return w

    def set_text(self, widget_id: str, text: str, *, style: str | None = None) -> None:
        w = self.widgets[widget_id]
        w.text = text
        if style:
            w.style = style
        w.dirty = True

    def flush(self) -> list[Widget]:
        changed = [w for w in self.widgets.values() if w.dirty]
        for w in changed:
            w.dirty = False
        return changed


def context_report(store: ContextStore) -> dict:
    kinds = Counter(s.kind for s in store.live())
    producers = Counter(s.produced_by.split(":", 1)[0] for s in store)
    biggest = max(store.live(), key=lambda s: len(s.content), default=None)
    return {
        "live": len(store.live()),
        "tombstoned": len(store.tombstoned()),
        "by_kind": dict(kinds),
        "by_producer": dict(producers),
        "tokens": sum(count_tokens(s) for s in store.live()),
        "largest": None if biggest is None else {"id": biggest.span_id, "chars": len(biggest.content), "head": biggest.content[:80]},
    }


def refresh_panel(panel: StatusPanel, store: ContextStore) -> None:
    r = context_report(store)
    panel.set_text("ctx.live", f"{r['live']} live spans")
    panel.set_text("ctx.tombstoned", f"{r['tombstoned']} tombstoned", style="warn" if r["tombstoned"] > 500 else None)
    panel.set_text("ctx.tokens", f"{r['tokens']:,} tokens")
