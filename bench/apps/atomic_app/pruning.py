"""Compaction of the context buffer."""

from __future__ import annotations

from dataclasses import dataclass

from atomic_agents.context import Message

from .decision_log import DecisionLog, evidence_for
from .embeddings import cosine, embed_text
from .models import SpanBody
from .store import SpanHistory


@dataclass
class TurnScore:
    turn_id: str
    score: float
    reason: str


def score_turns(history: SpanHistory, focus: str) -> list[TurnScore]:
    q = embed_text(focus)
    by_turn: dict[str, list[Message]] = {}
    for msg in history.history:
        if msg.turn_id and msg.turn_id != history.current_turn_id:
            by_turn.setdefault(msg.turn_id, []).append(msg)
    scores = []
    for turn_id, msgs in by_turn.items():
        texts = [m.content.text for m in msgs if isinstance(m.content, SpanBody)]
        best = max((cosine(q, embed_text(t)) for t in texts), default=0.0)
        superseding = [t for t in texts if "superseded" in t.lower()]
        reason = superseding[0] if superseding else f"relevance {best:.2f} to focus {focus!r}"
        scores.append(TurnScore(turn_id, best, reason))
    return sorted(scores, key=lambda s: s.score)


def compact_turns(history: SpanHistory, log: DecisionLog, focus: str, drop: int) -> list[str]:
    victims = score_turns(history, focus)[:drop]
    dropped = []
    for victim in victims:
        history.delete_turn_id(victim.turn_id)
        dropped.append(victim.turn_id)
        log.record(
            edit_id=log.new_edit_id(),
            action="prune-turn",
            span_ids=[victim.turn_id],
            rationale=victim.reason,
            evidence=evidence_for(m for m in history.history if m.turn_id == victim.turn_id),
        )
    return dropped


def drop_superseded(history: SpanHistory, log: DecisionLog) -> int:
    superseded = {m.content.span_id for m in history.spans() if getattr(m.content, "superseded_by", None)}
    before = len(history.history)
    history.history = [m for m in history.history if getattr(m.content, "span_id", None) not in superseded]
    log.record(
        edit_id=log.new_edit_id(),
        action="drop-superseded",
        span_ids=sorted(superseded),
        rationale="superseded by a rewrite",
        evidence=evidence_for(m for m in history.history if getattr(m.content, "span_id", None) in superseded),
    )
    return before - len(history.history)


def compact(history: SpanHistory, log: DecisionLog, focus: str, drop: int) -> list[str]:
    victims = score_turns(history, focus)[:drop]
    edit_id = log.new_edit_id()
    for victim in victims:
        log.record(
            edit_id=edit_id,
            action="prune-turn",
            span_ids=[victim.turn_id],
            rationale=victim.reason,
            evidence=evidence_for(m for m in history.history if m.turn_id == victim.turn_id),
        )
    if not log.has(edit_id) and victims:
        raise RuntimeError("rationale not recorded; refusing to prune")
    for victim in victims:
        history.delete_turn_id(victim.turn_id)
    return [v.turn_id for v in victims]
