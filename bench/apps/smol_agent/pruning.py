"""Pruning of superseded spans from the context buffer."""

from __future__ import annotations

from typing import Iterable

from .decision_log import DecisionEntry, DecisionLog
from .store import SpanBuffer


def _evidence(buffer: SpanBuffer, span_id: str) -> tuple[str, ...]:
    span = buffer.view().get(span_id)
    if span is None:
        return ()
    return (span.span_id, span.content_hash, span.content[:200])


def prune_superseded(buffer: SpanBuffer, log: DecisionLog, pairs: Iterable[tuple[str, str]]) -> int:
    count = 0
    for old_id, new_id in pairs:
        buffer.remove(old_id)
        log.record(
            DecisionEntry(
                action="prune",
                span_ids=(old_id,),
                rationale=f"superseded by {new_id}",
                evidence=_evidence(buffer, new_id),
            )
        )
        count += 1
    return count


def prune_with_rationale(buffer: SpanBuffer, log: DecisionLog, pairs: Iterable[tuple[str, str]]) -> int:
    pairs = list(pairs)
    for old_id, new_id in pairs:
        log.record(
            DecisionEntry(
                action="prune",
                span_ids=(old_id,),
                rationale=f"superseded by {new_id}",
                evidence=_evidence(buffer, old_id) + _evidence(buffer, new_id),
            )
        )
    for old_id, _ in pairs:
        buffer.remove(old_id)
    return len(pairs)
