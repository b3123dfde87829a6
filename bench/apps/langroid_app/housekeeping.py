"""Periodic maintenance of the context buffer."""
from __future__ import annotations

import time
from typing import List, Optional

from .offsets import OffsetMapCache
from .store import SpanBuffer


def sweep_tombstones(buffer: SpanBuffer, max_age_s: float, now: Optional[float] = None) -> List[str]:
    now = time.time() if now is None else now
    cutoff = now - max_age_s
    expired = [
        s.span_id
        for s in buffer.all_spans()
        if s.tombstoned_at is not None and s.tombstoned_at < cutoff
    ]
    for span_id in expired:
        buffer.purge(span_id)
    return expired


def collect_unreferenced(
    buffer: SpanBuffer,
    offsets: OffsetMapCache,
    grace_s: float,
    now: Optional[float] = None,
) -> List[str]:
    now = time.time() if now is None else now
    freed: List[str] = []
    for span in buffer.all_spans():
        if span.tombstoned_at is None or now - span.tombstoned_at < grace_s:
            continue
        if buffer.holders(span.span_id):
            continue
        if any(span.span_id in other.parent_ids for other in buffer.live()):
            continue
        offsets.drop_span(span.span_id)
        buffer.purge(span.span_id)
        freed.append(span.span_id)
    return freed
