"""Pruning of context spans: store-backed records and graph messages."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, RemoveMessage, ToolMessage

from .buffer import SpanBuffer
from .decision_log import DecisionLog
from .models import SpanRecord, message_text

SUPERSEDED_MARK = "superseded:"


def _superseded_by(records: Sequence[SpanRecord]) -> dict[str, SpanRecord]:
    """Map a superseded module/topic name to the span that announced it."""
    out: dict[str, SpanRecord] = {}
    for rec in records:
        for line in rec.content.splitlines():
            if line.lower().startswith(SUPERSEDED_MARK):
                out[line.split(":", 1)[1].strip()] = rec
    return out


def prune_superseded(buffer: SpanBuffer, log: DecisionLog) -> list[str]:
    live = buffer.live()
    notices = _superseded_by(live)
    doomed = [
        r for r in live if any(topic in r.content for topic in notices) and r.kind == "source"
    ]
    for rec in doomed:
        buffer.store.delete(buffer.ns, rec.span_id)
    for topic, notice in notices.items():
        still_there = buffer.get(notice.span_id)
        log.record(
            "prune",
            [r.span_id for r in doomed if topic in r.content],
            rationale=f"{topic} superseded",
            evidence=[still_there.content] if still_there else [],
        )
    return [r.span_id for r in doomed]


def prune_superseded_logged(buffer: SpanBuffer, log: DecisionLog) -> list[str]:
    live = buffer.live()
    notices = _superseded_by(live)
    pruned: list[str] = []
    for topic, notice in notices.items():
        targets = [
            r.span_id for r in live if topic in r.content and r.span_id != notice.span_id
        ]
        if not targets:
            continue
        log.record(
            "prune",
            targets,
            rationale=f"{topic} superseded (announced in {notice.span_id})",
            evidence=[notice.span_id, notice.content_hash, notice.content[:400]],
        )
        for span_id in targets:
            buffer.tombstone(span_id)
        pruned.extend(targets)
    return pruned


def stale_tool_removals(messages: Sequence[BaseMessage], keep_last: int) -> list[RemoveMessage]:
    """Drop tool chatter that a later message declared superseded."""
    head = list(messages[:-keep_last]) if keep_last else list(messages)
    markers = [
        m for m in head if isinstance(m, AIMessage) and SUPERSEDED_MARK in message_text(m).lower()
    ]
    if not markers:
        return []
    topics = {
        message_text(m).lower().split(SUPERSEDED_MARK, 1)[1].split()[0] for m in markers
    }
    victims = [
        m for m in head if isinstance(m, ToolMessage) and any(t in message_text(m).lower() for t in topics)
    ]
    return [RemoveMessage(id=m.id) for m in [*victims, *markers] if m.id]
