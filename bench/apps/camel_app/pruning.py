"""Pruning and compaction passes over the context buffer."""
from __future__ import annotations

import uuid
from typing import List

from camel.memories import ContextRecord, MemoryRecord
from camel.types import OpenAIBackendRole

from .buffer import ContextBuffer
from .decision_log import DecisionLog
from .models import PRODUCED_BY_KEY, VERSION_KEY, record_id, record_version

SUPERSEDED_MARKERS = ("superseded", "no longer applies", "replaced by")


def _is_notice(record: MemoryRecord) -> bool:
    text = record.message.content.lower()
    return any(marker in text for marker in SUPERSEDED_MARKERS)


def _mentioned_by(notice: MemoryRecord, record: MemoryRecord) -> bool:
    topic = record.extra_info.get("topic")
    return bool(topic) and topic in notice.message.content


def drop_superseded(buffer: ContextBuffer, log: DecisionLog) -> List[str]:
    live = buffer.live()
    notices = [r for r in live if _is_notice(r)]
    doomed = [
        record_id(r)
        for r in live
        if r not in notices and any(_mentioned_by(n, r) for n in notices)
    ]
    doomed += [record_id(n) for n in notices]
    removed = buffer.memory.retire(doomed)
    edit_id = uuid.uuid4().hex
    for record in removed:
        log.record(
            action="prune",
            rationale="superseded",
            evidence_span=record_id(record),
            edit_id=edit_id,
        )
    return [record_id(r) for r in removed]


def evict_low_score(buffer: ContextBuffer, log: DecisionLog, threshold: float) -> List[str]:
    scored: List[ContextRecord] = buffer.memory.retrieve()
    victims = [
        cr.memory_record
        for cr in scored
        if cr.score < threshold and cr.memory_record.role_at_backend != OpenAIBackendRole.SYSTEM
    ]
    edit_id = uuid.uuid4().hex
    for cr in scored:
        if cr.memory_record in victims:
            log.record(
                action="evict",
                rationale=f"score {cr.score:.3f} below {threshold}",
                evidence_span=record_id(cr.memory_record),
                excerpt=cr.memory_record.message.content[:200],
                edit_id=edit_id,
            )
    buffer.memory.retire(record_id(r) for r in victims)
    return [record_id(r) for r in victims]


def clip_tool_outputs(buffer: ContextBuffer, max_chars: int) -> int:
    long_tool_records = [
        r
        for r in buffer.live()
        if r.role_at_backend in (OpenAIBackendRole.TOOL, OpenAIBackendRole.FUNCTION)
        and len(r.message.content) > max_chars
    ]
    clipped = [
        r.model_copy(
            update={
                "message": r.message.create_new_instance(r.message.content[:max_chars] + " [...]"),
                "extra_info": {
                    **r.extra_info,
                    VERSION_KEY: str(record_version(r) + 1),
                    PRODUCED_BY_KEY: "rewrite:clip",
                },
            }
        )
        for r in long_tool_records
    ]
    for record in clipped:
        buffer.memory.replace(record)
    return len(clipped)
