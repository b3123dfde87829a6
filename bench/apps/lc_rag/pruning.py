"""Retention: expiring old chunks and compacting tombstones."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from typing import Iterable

from .decision_log import DecisionLog
from .records import fingerprint
from .vector_index import ChunkIndex

logger = logging.getLogger(__name__)


class HolderRegistry:
    """Reference counts for chunks cited by answers that are still open in the UI."""

    def __init__(self) -> None:
        self._refs: Counter[str] = Counter()

    def hold(self, chunk_ids: Iterable[str]) -> None:
        self._refs.update(chunk_ids)

    def release(self, chunk_ids: Iterable[str]) -> None:
        for cid in chunk_ids:
            self._refs[cid] -= 1
            if self._refs[cid] <= 0:
                del self._refs[cid]

    def is_held(self, chunk_id: str) -> bool:
        return self._refs.get(chunk_id, 0) > 0


def _expired(index: ChunkIndex, max_age_s: float, now: float) -> list[str]:
    out = []
    for cid, entry in index.vs.store.items():
        if now - float(entry["metadata"].get("indexed_at", now)) > max_age_s:
            out.append(cid)
    return out


async def evict_expired(index: ChunkIndex, log: DecisionLog, max_age_s: float) -> list[str]:
    """Remove chunks that have not been re-ingested within the retention window."""
    now = time.time()
    stale = _expired(index, max_age_s, now)
    if not stale:
        return []
    try:
        await index.vs.adelete(ids=stale)
    except Exception:
        logger.exception("eviction failed")
        raise
    await asyncio.to_thread(
        log.record,
        "evict_expired",
        stale,
        f"not re-ingested within {max_age_s / 86400:.0f} days",
        {"now": now},
    )
    return stale


def retire_chunks(index: ChunkIndex, log: DecisionLog, chunk_ids: list[str], reason: str) -> None:
    """Tombstone chunks on request from a document owner."""
    evidence = {}
    for cid in chunk_ids:
        doc = index.get(cid)
        if doc is not None:
            _, version, digest = fingerprint(doc)
            evidence[cid] = {"version": version, "content_hash": digest, "source": doc.metadata.get("source")}
    log.record("retire", chunk_ids, rationale=reason, evidence=evidence)
    index.tombstone(chunk_ids)


def compact_tombstones(index: ChunkIndex, log: DecisionLog, ttl_s: float) -> list[str]:
    """Physically delete tombstoned chunks after the grace period."""
    now = time.time()
    doomed = [cid for cid, at in index.tombstones.items() if now - at > ttl_s]
    if doomed:
        log.record("compact", doomed, rationale=f"tombstoned for more than {ttl_s:.0f}s")
        index.hard_delete(doomed)
    return doomed


def compact_unheld(
    index: ChunkIndex, log: DecisionLog, holders: HolderRegistry, ttl_s: float
) -> list[str]:
    """Physically delete tombstoned chunks that nothing references any more."""
    now = time.time()
    doomed = [
        cid
        for cid, at in index.tombstones.items()
        if now - at > ttl_s and not holders.is_held(cid)
    ]
    if doomed:
        log.record(
            "compact",
            doomed,
            rationale=f"tombstoned for more than {ttl_s:.0f}s and no open citations",
        )
        index.hard_delete(doomed)
    return doomed
