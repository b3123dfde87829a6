"""Pruning and compaction of the context buffer and long-term memory."""

from __future__ import annotations

import re
from typing import Sequence

from google.adk.memory import BaseMemoryService

from .buffer import ContextBuffer
from .decision_log import DecisionLog

_SUPERSEDED = re.compile(r"^SUPERSEDED:\s*(?P<ids>[\w@:,\s-]+?)(?:\s+--\s+(?P<why>.*))?$", re.S)


def _superseded_targets(content: str) -> list[str]:
    m = _SUPERSEDED.match(content)
    if not m:
        return []
    return [s.strip() for s in m.group("ids").split(",") if s.strip()]


def compact_context(buffer: ContextBuffer, log: DecisionLog, keep_last: int = 8) -> list[str]:
    recs = buffer.values()
    older = recs[:-keep_last] if keep_last else recs
    markers = [r for r in older if _superseded_targets(r.content)]
    doomed: set[str] = set()
    for marker in markers:
        doomed.update(_superseded_targets(marker.content))
        doomed.add(marker.span_id)
    live = {r.span_id for r in recs}
    doomed &= live
    for span_id in sorted(doomed):
        buffer.remove(span_id)
    if doomed:
        log.record(
            action="compact",
            span_ids=sorted(doomed),
            rationale=f"{len(doomed)} spans superseded",
        )
    return sorted(doomed)


def prune_with_rationale(
    buffer: ContextBuffer,
    log: DecisionLog,
    span_ids: Sequence[str],
    reason_span_id: str,
) -> list[str]:
    reason = buffer.get(reason_span_id)
    targets = [sid for sid in span_ids if sid != reason_span_id]
    log.record(
        action="prune",
        span_ids=targets,
        rationale=reason.content,
        evidence=[reason.span_id, str(reason.version), reason.content_hash],
        excerpt=reason.content[:240],
    )
    for sid in targets:
        buffer.tombstone(sid)
    return targets


async def forget_contradicted(
    memory_service: BaseMemoryService,
    log: DecisionLog,
    *,
    app_name: str,
    user_id: str,
    topic: str,
) -> int:
    found = await memory_service.search_memory(app_name=app_name, user_id=user_id, query=topic)
    contradicted = [m for m in found.memories if m.custom_metadata.get("status") == "contradicted"]
    for memory in contradicted:
        await memory_service.delete_memory(
            app_name=app_name, user_id=user_id, memory_id=memory.id
        )
    if contradicted:
        log.record(
            action="forget",
            span_ids=[m.id or "" for m in contradicted],
            rationale=f"contradicted memories about {topic!r}",
        )
    return len(contradicted)
