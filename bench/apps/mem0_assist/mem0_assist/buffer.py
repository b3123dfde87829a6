"""The assistant's working context: spans from memory, turns and tools."""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Optional

from .decision_log import DecisionLog
from .records import ContextSpan, digest, token_offsets


class ContextBuffer:
    def __init__(self, log: DecisionLog) -> None:
        self._spans: dict[str, ContextSpan] = {}
        self._holders: dict[str, set[str]] = defaultdict(set)
        self.log = log

    def add(self, span: ContextSpan) -> ContextSpan:
        self._spans[span.span_id] = span
        return span

    def get(self, span_id: str) -> Optional[ContextSpan]:
        return self._spans.get(span_id)

    def hold(self, span_id: str, holder: str) -> None:
        self._holders[span_id].add(holder)

    def release(self, span_id: str, holder: str) -> None:
        self._holders.get(span_id, set()).discard(holder)

    def normalize_whitespace(self, span_id: str) -> None:
        span = self._spans[span_id]
        cleaned = " ".join(span.content.split())
        if cleaned == span.content:
            return
        target = span
        target.content = cleaned
        target.produced_by = "rewrite:normalize"

    def revise(self, span_id: str, new_content: str, op: str) -> ContextSpan:
        span = self._spans[span_id]
        span.content = new_content
        span.version += 1
        span.content_hash = digest(new_content)
        span.token_offsets = token_offsets(new_content)
        span.embedding = None
        span.produced_by = f"rewrite:{op}"
        return span

    def patch(self, span_id: str, old: str, new: str) -> bool:
        span = self._spans.get(span_id)
        if span is None or old not in span.content:
            return False
        span.content = span.content.replace(old, new, 1)
        span.version += 1
        return True

    def supersede(self, span_id: str, new_content: str, op: str) -> ContextSpan:
        old = self._spans[span_id]
        fresh = self.add(ContextSpan(f"{old.span_id}~{old.version + 1}", new_content, source=old.source,
                                     version=old.version + 1, memory_id=old.memory_id, produced_by=f"rewrite:{op}"))
        old.tombstoned_at = time.time()
        return fresh

    def gc_tombstones(self, max_age_s: float = 3600.0) -> int:
        now = time.time()
        expired = [sid for sid, s in self._spans.items() if s.tombstoned_at and now - s.tombstoned_at > max_age_s]
        for sid in expired:
            del self._spans[sid]
        return len(expired)

    def collect_garbage(self) -> list[str]:
        removable = [sid for sid, s in self._spans.items() if not s.live and not self._holders.get(sid)]
        if not removable:
            return []
        self.log.record("gc", removable, "tombstoned and no longer referenced")
        for sid in removable:
            self._spans.pop(sid)
            self._holders.pop(sid, None)
        return removable
