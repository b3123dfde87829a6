"""Context compaction: dropping spans and session items that are no longer needed."""

from __future__ import annotations

from .buffer import ContextBuffer
from .decision_log import DecisionLog
from .models import DeskSpan, item_text
from .session_store import DeskSession


def prune_with_rationale(
    buffer: ContextBuffer, log: DecisionLog, span_ids: list[str], rationale: str
) -> list[DeskSpan]:
    targets = [buffer.get(sid) for sid in span_ids]
    present = [span for span in targets if span is not None]
    log.record(
        action="prune",
        span_ids=tuple(span.span_id for span in present),
        rationale=rationale,
        evidence=tuple(span.content_hash for span in present),
    )
    return [buffer.remove(span.span_id) for span in present]


def drop_superseded(buffer: ContextBuffer, log: DecisionLog, marker: str) -> int:
    hits = [span for span in buffer.live() if marker in span.content]
    for span in hits:
        buffer.remove(span.span_id)
    log.record(
        action="prune",
        span_ids=tuple(span.span_id for span in hits),
        rationale=f"spans mention superseded component {marker!r}",
    )
    return len(hits)


async def trim_tool_tail(session: DeskSession, log: DecisionLog, keep_tool_outputs: int = 2) -> int:
    popped = []
    while True:
        rows = session.rows()
        tool_rows = [r for r in rows if r["item"].get("type") == "function_call_output"]
        if len(tool_rows) <= keep_tool_outputs or not rows:
            break
        if rows[-1]["item"].get("type") != "function_call_output":
            break
        popped.append(await session.pop_item())
    if popped:
        log.record(
            action="trim",
            span_ids=tuple(str(item.get("call_id", "")) for item in popped if item),
            rationale="; ".join(item_text(item)[:80] for item in popped if item),
        )
    return len(popped)


def budget_cut(buffer: ContextBuffer, log: DecisionLog, max_spans: int) -> list[str]:
    live = buffer.live()
    overflow = live[: max(0, len(live) - max_spans)]
    if not overflow:
        return []
    return [
        span.span_id
        for span in prune_with_rationale(
            buffer, log, [s.span_id for s in overflow], f"over budget of {max_spans} spans"
        )
    ]
