"""Periodic jobs: buffer compaction, tombstone sweeps, nightly store maintenance."""

from __future__ import annotations

import logging
import time
import uuid
from typing import Callable, Iterable

from tessera.artifacts import ArtifactRegistry
from tessera.buffer import ContextBuffer
from tessera.decisions import DecisionLog
from tessera.records import Span
from tessera.store import SpanStore

log = logging.getLogger(__name__)

EXCERPT_CHARS = 240


def compact_buffer(
    buf: ContextBuffer,
    decisions: DecisionLog,
    select: Callable[[list[Span]], Iterable[Span]],
    reason: str,
) -> list[str]:
    victims = [v for v in select(buf.live()) if v.role != "system"]
    if not victims:
        return []
    decisions.append(
        {
            "edit_id": uuid.uuid4().hex,
            "op": "compact",
            "span_ids": [v.span_id for v in victims],
            "rationale": reason,
            "evidence": [
                {
                    "span_id": v.span_id,
                    "version": v.version,
                    "content_hash": v.content_hash,
                    "excerpt": v.content[:EXCERPT_CHARS],
                }
                for v in victims
            ],
        }
    )
    for v in victims:
        buf.drop(v.span_id)
    return [v.span_id for v in victims]


def sweep_tombstones(buf: ContextBuffer, registry: ArtifactRegistry, *, min_age_s: float = 3_600) -> int:
    now = time.time()
    removed = 0
    for t in buf.tombstones():
        if now - (t.tombstoned_at or now) < min_age_s:
            continue
        if registry.holders_of(t.span_id):
            continue
        if any(t.span_id in s.parents for s in buf):
            continue
        buf.drop(t.span_id)
        removed += 1
    return removed


def run_nightly(store: SpanStore, *, tombstone_days: int = 14, job_days: int = 3) -> dict[str, int]:
    stats = {
        "jobs": store.purge_jobs(older_than_s=job_days * 86_400),
        "tombstones": store.vacuum_tombstones(older_than_s=tombstone_days * 86_400),
    }
    log.info("nightly maintenance: %s", stats)
    return stats
