"""The context window: ordered segments plus a token budget."""
import time
from typing import Iterator, Optional

from .models import Origin, Segment, fingerprint


class ContextWindow:
    def __init__(self, budget_tokens: int = 8000) -> None:
        self.budget_tokens = budget_tokens
        self._segments: dict[str, Segment] = {}
        self._order: list[str] = []

    def __len__(self) -> int:
        return len(self._order)

    def __iter__(self) -> Iterator[Segment]:
        for sid in list(self._order):
            seg = self._segments[sid]
            if seg.live:
                yield seg

    def add(self, seg: Segment) -> Segment:
        if seg.seg_id in self._segments:
            raise ValueError(f"duplicate segment id {seg.seg_id!r}")
        self._segments[seg.seg_id] = seg
        self._order.append(seg.seg_id)
        return seg

    def get(self, seg_id: str) -> Optional[Segment]:
        return self._segments.get(seg_id)

    def view(self, seg_id: str) -> Segment:
        if seg_id not in self._segments:
            raise KeyError(f"no segment {seg_id!r}")
        return self._segments[seg_id]

    def used_tokens(self) -> int:
        return sum(seg.token_estimate() for seg in self)

    def replace(self, seg_id: str, body: str, *, origin: Optional[Origin] = None) -> Segment:
        seg = self.view(seg_id)
        seg.body = body
        seg.rev += 1
        seg.digest = fingerprint(body)
        seg.embedding = None
        if origin is not None:
            seg.origin = origin
        return seg

    def set_body(self, seg_id: str, body: str) -> None:
        """Cheap edit used by the front end's 'fix typo' action."""
        seg = self.view(seg_id)
        if seg.body == body:
            return
        seg.body = body
        seg.rev += 1

    def fork(self, seg_id: str, body: str, origin: Origin) -> Segment:
        """Write rewritten text as a new segment and tombstone the old one."""
        old = self.view(seg_id)
        new = Segment(
            seg_id=f"{old.seg_id}~{old.rev + 1}",
            body=body,
            rev=old.rev + 1,
            origin=origin,
            derived_from=[old.seg_id],
            pinned=old.pinned,
        )
        old.tombstoned_at = time.time()
        self._segments[new.seg_id] = new
        self._order[self._order.index(seg_id)] = new.seg_id
        return new

    def store(self, seg: Segment) -> None:
        self._segments[seg.seg_id] = seg

    def tombstone(self, seg_id: str) -> None:
        seg = self.view(seg_id)
        seg.tombstoned_at = time.time()
        if seg_id in self._order:
            self._order.remove(seg_id)

    def drop(self, seg_id: str) -> Optional[Segment]:
        if seg_id in self._order:
            self._order.remove(seg_id)
        return self._segments.pop(seg_id, None)

    def tombstoned(self) -> list[Segment]:
        return [s for s in self._segments.values() if not s.live]

    def purge(self, seg_id: str) -> None:
        seg = self._segments.get(seg_id)
        if seg is not None and not seg.live:
            del self._segments[seg_id]
