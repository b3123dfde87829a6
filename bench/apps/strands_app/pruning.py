"""Compaction passes that drop context the assistant no longer needs."""

from __future__ import annotations

import re
import uuid

from .buffer import ContextBuffer, hash_of, span_meta, text_of
from .decision_log import DecisionLog
from .embeddings import EmbeddingIndex
from .models import DecisionEntry

RESOLVED = re.compile(r"\b(resolved|superseded|no longer applies|closing this)\b", re.I)


def _closed_threads(store: ContextBuffer) -> dict[str, str]:
    closed_by: dict[str, str] = {}
    for message in store.messages:
        if RESOLVED.search(text_of(message)):
            for tid in span_meta(message).get("closes", []):
                closed_by[tid] = message["tracking_id"]
            closed_by[message["tracking_id"]] = message["tracking_id"]
    return closed_by


def prune_resolved_threads(store: ContextBuffer, log: DecisionLog) -> int:
    edit_id = f"prune-{uuid.uuid4().hex[:8]}"
    closed_by = _closed_threads(store)
    removed = store.remove(closed_by)
    for message in removed:
        tid = message["tracking_id"]
        closer = store.get(closed_by[tid])
        why = text_of(closer)[:240] if closer else "thread resolved"
        log.record(DecisionEntry(edit_id, "prune", (tid,), rationale=why, evidence=closed_by[tid]))
    return len(removed)


def prune_by_relevance(
    store: ContextBuffer, index: EmbeddingIndex, log: DecisionLog, query: str, keep: int
) -> int:
    ranked = index.rank(query, store.messages[2:])
    low = [(score, m) for score, m in ranked[keep:] if not span_meta(m).get("pinned")]
    if not low:
        return 0
    edit_id = f"relevance-{uuid.uuid4().hex[:8]}"
    for score, message in low:
        log.record(
            DecisionEntry(
                edit_id,
                "prune",
                (message["tracking_id"],),
                rationale=f"relevance {score:.3f} to {query!r} below top-{keep}",
                evidence=f"{hash_of(message)}:{text_of(message)[:240]}",
            )
        )
    store.remove(m["tracking_id"] for _, m in low)
    return len(low)
