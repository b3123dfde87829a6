# rules: SPL403
"""Held-out: tombstone collection that checks liveness, and age-based eviction that is not tombstone GC."""
from __future__ import annotations

import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

TOMBSTONE_TTL = 3600.0
MAX_AGE = timedelta(days=1)


@dataclass
class Span:
    id: str
    content: str
    tombstoned: bool = False
    deleted: bool = False
    deleted_at: float = 0.0
    created_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    holders: set[str] = field(default_factory=set)
    refcount: int = 0
    pruned_turn: int = 0


def is_referenced(span: Span) -> bool:
    return bool(span.holders)


class Store:
    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.by_id: dict[str, Span] = {}
        self.live_refs: dict[str, int] = {}
        self._weakrefs: weakref.WeakValueDictionary[str, Span] = weakref.WeakValueDictionary()
        self.turn = 0

    def gc_holders(self) -> None:
        now = time.time()
        for span in list(self.spans):
            if span.tombstoned and now - span.deleted_at > TOMBSTONE_TTL and not span.holders:
                self.spans.remove(span)

    def gc_refcount(self) -> None:
        cutoff = time.time() - TOMBSTONE_TTL
        self.spans = [s for s in self.spans if not (s.tombstoned and s.deleted_at < cutoff and s.refcount == 0)]

    def gc_live_refs(self) -> None:
        now = datetime.now(timezone.utc)
        for span_id, span in list(self.by_id.items()):
            if span.deleted and now - span.created_at > MAX_AGE and self.live_refs.get(span_id, 0) == 0:
                del self.by_id[span_id]

    def gc_helper(self) -> None:
        for span in list(self.spans):
            if span.tombstoned and time.time() - span.deleted_at > TOMBSTONE_TTL:
                if is_referenced(span):
                    continue
                self.spans.remove(span)

    def gc_weakref(self) -> None:
        for span_id in list(self.by_id):
            span = self.by_id[span_id]
            if span.deleted and time.monotonic() - span.deleted_at > TOMBSTONE_TTL and span_id not in self._weakrefs:
                del self.by_id[span_id]

    def gc_has_holders(self, registry) -> None:
        for span in list(self.spans):
            if span.tombstoned and time.time() - span.deleted_at > TOMBSTONE_TTL and not registry.has_holders(span.id):
                self.spans.remove(span)

    def gc_unreferenced_only(self) -> None:
        for span in list(self.spans):
            if span.tombstoned and span.refcount == 0:
                self.spans.remove(span)

    def gc_turn_and_holders(self) -> None:
        for i in reversed(range(len(self.spans))):
            span = self.spans[i]
            if span.content == "[pruned]" and self.turn - span.pruned_turn > 5 and not span.holders:
                self.spans.pop(i)

    def mark_tombstone(self, span: Span) -> None:
        span.tombstoned = True
        span.deleted_at = time.time()

    def expired_count(self) -> int:
        now = time.time()
        return sum(1 for s in self.spans if s.tombstoned and now - s.deleted_at > TOMBSTONE_TTL)

    def trim_old_live(self, max_age: float) -> None:
        """Age-based trimming of live spans is SPL401's business, not tombstone GC."""
        now = time.time()
        self.spans = [s for s in self.spans if now - s.deleted_at < max_age or s.tombstoned]


class TTLCache:
    def __init__(self, ttl: float) -> None:
        self.ttl = ttl
        self._data: dict[str, tuple[float, object]] = {}

    def expire(self) -> None:
        now = time.monotonic()
        for key, (ts, _) in list(self._data.items()):
            if now - ts > self.ttl:
                del self._data[key]


class HTTPCache:
    def __init__(self) -> None:
        self.entries: OrderedDict[str, dict] = OrderedDict()

    def purge_stale(self, max_age: int) -> None:
        now = time.time()
        for url in list(self.entries):
            entry = self.entries[url]
            if now - entry["created_at"] > max_age:
                self.entries.pop(url)


class SessionStore:
    def __init__(self) -> None:
        self.sessions: dict[str, dict] = {}

    def reap(self) -> None:
        now = datetime.now()
        for sid, sess in list(self.sessions.items()):
            if sess["deleted"] and now - sess["deleted_at"] > timedelta(hours=1):
                del self.sessions[sid]


class Orm:
    def purge_soft_deleted(self, session, Row) -> None:
        cutoff = datetime.now() - timedelta(days=30)
        session.query(Row).filter(Row.deleted_at < cutoff).delete()


class LogRotation:
    def __init__(self) -> None:
        self.files: list[tuple[str, float]] = []

    def rotate(self, max_age: float) -> None:
        now = time.time()
        self.files = [(p, ts) for p, ts in self.files if now - ts < max_age]


def gc_refcounted(spans: list[Span], max_age: float) -> None:
    now = time.time()
    spans[:] = [s for s in spans if not (s.tombstoned and now - s.deleted_at > max_age and s.refcount <= 0)]


def gc_with_holder_set(chunks: dict[str, Span], holders: dict[str, set[str]]) -> None:
    now = time.time()
    for cid in list(chunks):
        chunk = chunks[cid]
        if chunk.deleted and now - chunk.deleted_at > TOMBSTONE_TTL and not holders.get(cid):
            del chunks[cid]


def gc_by_liveness_early_return(messages: list[dict]) -> None:
    for msg in list(messages):
        if msg.get("holders"):
            continue
        if msg.get("tombstoned") and time.time() - msg["ts"] > TOMBSTONE_TTL:
            messages.remove(msg)


class DNSCache:
    def __init__(self) -> None:
        self.records: dict[str, tuple[str, float]] = {}

    def evict_expired(self) -> None:
        now = time.time()
        expired = [name for name, (_, exp) in self.records.items() if exp < now]
        for name in expired:
            del self.records[name]


class RateLimiter:
    def __init__(self) -> None:
        self.hits: list[float] = []

    def allow(self, window: float, limit: int) -> bool:
        now = time.monotonic()
        while self.hits and now - self.hits[0] > window:
            self.hits.pop(0)
        if len(self.hits) < limit:
            self.hits.append(now)
            return True
        return False


def restore_tombstoned(spans: list[Span]) -> None:
    for span in spans:
        if span.tombstoned and time.time() - span.deleted_at < TOMBSTONE_TTL:
            span.tombstoned = False


class WeakHeldNodes:
    def __init__(self) -> None:
        self.nodes: dict[str, Span] = {}
        self.refs: dict[str, weakref.ref] = {}

    def purge(self) -> None:
        for node_id in list(self.nodes):
            node = self.nodes[node_id]
            ref = self.refs.get(node_id)
            if node.deleted and time.time() - node.deleted_at > TOMBSTONE_TTL and (ref is None or ref() is None):
                del self.nodes[node_id]


class OtelBatcher:
    """OpenTelemetry-style batch processor: drops old tracing spans."""

    def __init__(self) -> None:
        self.queue: list = []

    def drop_old(self, max_age_ns: int) -> None:
        now = time.time_ns()
        self.queue = [s for s in self.queue if now - s.start_time < max_age_ns]


class RefTrackingStore:
    def __init__(self) -> None:
        self.entries: dict[str, Span] = {}
        self._holders: dict[str, int] = {}

    def is_referenced(self, entry_id: str) -> bool:
        return self._holders.get(entry_id, 0) > 0

    def compact(self, max_age: timedelta) -> None:
        now = datetime.now(timezone.utc)
        for entry_id, entry in list(self.entries.items()):
            if entry.tombstoned and now - entry.created_at > max_age and not self.is_referenced(entry_id):
                self.entries.pop(entry_id)


def expire_pruned_entries(ctx: dict, now: float, keep_seconds: float) -> None:
    for entry in list(ctx["entries"]):
        if entry["content"] != "[pruned]" or entry.get("holders"):
            continue
        if now - entry["pruned_at"] <= keep_seconds:
            continue
        ctx["entries"].remove(entry)


class JobTable:
    def __init__(self) -> None:
        self.jobs: dict[str, dict] = {}

    def reap(self, now: float) -> None:
        for job_id, job in list(self.jobs.items()):
            if not job.get("deleted"):
                continue
            if now - job["finished_at"] > 600:
                del self.jobs[job_id]
