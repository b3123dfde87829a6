"""Pruning passes over the context store."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable

from .decisions import DecisionLog
from .spans import ContextStore, Span

_SUPERSEDE_RE = re.compile(r"^superseded:\s*(?P<ids>[\w\-, ]+?)\s*(?:--|—)\s*(?P<why>.+)$", re.M)


def _superseded_targets(notice: Span) -> tuple[list[str], str]:
    m = _SUPERSEDE_RE.search(notice.content)
    if not m:
        return [], ""
    ids = [x.strip() for x in m.group("ids").split(",") if x.strip()]
    return ids, m.group("why").strip()


def prune_superseded(store: ContextStore, log: DecisionLog) -> int:
    removed = 0
    for notice in store.live("note"):
        ids, why = _superseded_targets(notice)
        if not ids:
            continue
        removed += store.delete_many([*ids, notice.span_id])
        log.record(
            edit_id=f"prn-{uuid.uuid4().hex[:8]}",
            action="prune_superseded",
            span_ids=ids,
            rationale=why,
        )
    return removed


def prune_with_rationale(
    store: ContextStore,
    log: DecisionLog,
    span_ids: Iterable[str],
    *,
    reason: str,
    evidence_span: str | None = None,
) -> list[str]:
    targets = [sid for sid in span_ids if sid in store]
    if not targets:
        return []
    evidence: list[str] = []
    if evidence_span is not None:
        ev = store.get(evidence_span)
        evidence = [ev.span_id, ev.content_hash, ev.content[:400]]
    log.record(
        edit_id=f"prn-{uuid.uuid4().hex[:8]}",
        action="prune",
        span_ids=targets,
        rationale=reason,
        evidence=evidence,
    )
    for sid in targets:
        store.tombstone(sid)
    return targets
