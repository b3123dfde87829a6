"""Pruning and compaction passes over the context buffer."""
from __future__ import annotations

from typing import Dict, List

from agno_team.buffer import SpanBuffer
from agno_team.decision_log import DecisionLog
from agno_team.models import ContextSpan


def prune_superseded(buffer: SpanBuffer, log: DecisionLog, superseded: Dict[str, str]) -> List[str]:
    """superseded maps a span id to the id of the span that made it obsolete."""
    removed: List[str] = []
    for span_id in list(superseded):
        if buffer.remove(span_id) is not None:
            removed.append(span_id)
    for span_id in removed:
        reason_id = superseded[span_id]
        reason = buffer.get(reason_id)
        log.record(
            op="prune",
            target_ids=[span_id],
            rationale=reason.content[:300] if reason else f"superseded by {reason_id}",
            evidence=[reason_id],
        )
    return removed


def compact_low_relevance(
    buffer: SpanBuffer, log: DecisionLog, scores: Dict[str, float], threshold: float
) -> List[ContextSpan]:
    victims = [s for s in buffer.live() if s.kind != "summary" and scores.get(s.span_id, 1.0) < threshold]
    for span in victims:
        log.record(
            op="compact",
            target_ids=[span.span_id],
            rationale=f"relevance {scores[span.span_id]:.2f} below {threshold:.2f}",
            evidence=[span.content_hash, span.content[:200]],
        )
    for span in victims:
        buffer.tombstone(span.span_id)
    return victims


def over_budget(buffer: SpanBuffer, budget_chars: int) -> bool:
    return buffer.total_chars() > budget_chars
