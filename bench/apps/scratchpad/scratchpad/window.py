"""The context window: an ordered map of segments."""

from __future__ import annotations

import time
from typing import Iterator, Optional

from scratchpad.models import Segment, digest, new_id


class ContextWindow:
    def __init__(self, budget_tokens: int = 8000) -> None:
        self._segments: dict[str, Segment] = {}
        self.order: list[str] = []
        self.budget_tokens = budget_tokens
        self.running_summary: Optional[Segment] = None

    def __iter__(self) -> Iterator[Segment]:
        for sid in self.order:
            yield self._segments[sid]

    def __len__(self) -> int:
        return len(self.order)

    def add(self, seg: Segment) -> Segment:
        self._segments[seg.seg_id] = seg
        self.order.append(seg.seg_id)
        return seg

    def get(self, seg_id: str) -> Optional[Segment]:
        return self._segments.get(seg_id)

    def values(self):
        return list(self._segments.values())

    def replace(self, seg_id: str, body: str) -> Segment:
        seg = self._segments[seg_id]
        seg.body = body
        seg.rev += 1
        seg.digest = digest(body)
        seg.embedding = None
        seg.token_offsets = []
        return seg

    def patch(self, seg_id: str, body: str) -> Segment:
        """Quick fix-up used by the tool layer."""
        seg = self._segments[seg_id]
        seg.body = body
        seg.rev += 1
        return seg

    def fork(self, seg_id: str, body: str, op: str) -> Segment:
        old = self._segments[seg_id]
        child = Segment(seg_id=new_id(op), body=body, kind=old.kind, parents=[old.seg_id])
        old.tombstoned_at = time.time()
        self.add(child)
        return child

    def drop(self, seg_id: str) -> None:
        self._segments.pop(seg_id, None)
        if seg_id in self.order:
            self.order.remove(seg_id)

    def tombstone(self, seg_id: str) -> None:
        seg = self._segments[seg_id]
        seg.tombstoned_at = time.time()

    def token_count(self) -> int:
        return sum(len(s.body) // 4 for s in self._segments.values())
