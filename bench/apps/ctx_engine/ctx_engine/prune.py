"""Removing segments from the window, and compacting tombstones."""
import time
from typing import Iterable, Optional

from .audit import AuditTrail
from .models import Origin
from .registry import ArtifactRegistry
from .window import ContextWindow


class Pruner:
    def __init__(self, window: ContextWindow, trail: AuditTrail) -> None:
        self.window = window
        self.trail = trail

    def evict(self, seg_ids: Iterable[str], reason: str) -> list[str]:
        victims = [s for s in (self.window.get(i) for i in seg_ids) if s is not None and not s.pinned]
        if not victims:
            return []
        self.trail.record("evict", [v.seg_id for v in victims], reason, {v.seg_id: v.digest for v in victims})
        for v in victims:
            self.window.tombstone(v.seg_id)
        return [v.seg_id for v in victims]

    def drop_stale_tool_output(self, older_than_s: float = 900.0) -> int:
        now = time.time()
        dropped: list[str] = []
        for seg in self.window:
            if seg.origin is Origin.TOOL and now - seg.created_at > older_than_s:
                self.window.drop(seg.seg_id)
                dropped.append(seg.seg_id)
        if dropped:
            self.trail.record("drop-tool-output", dropped, f"tool output older than {older_than_s:.0f}s")
        return len(dropped)

    def fit_budget(self) -> int:
        """Make room by dropping the oldest unpinned segments."""
        removed = 0
        while self.window.used_tokens() > self.window.budget_tokens:
            oldest = next((s for s in self.window if not s.pinned), None)
            if oldest is None:
                break
            self.window.drop(oldest.seg_id)
            removed += 1
        return removed


def sweep_tombstones(window: ContextWindow, max_age_s: float, now: Optional[float] = None) -> list[str]:
    now = time.time() if now is None else now
    doomed = [s.seg_id for s in window.tombstoned() if now - (s.tombstoned_at or now) > max_age_s]
    for seg_id in doomed:
        window.purge(seg_id)
    return doomed


def _referenced(window: ContextWindow, seg_id: str) -> bool:
    return any(seg_id in s.derived_from for s in window)


def collect(window: ContextWindow, registry: ArtifactRegistry, trail: AuditTrail) -> list[str]:
    freed: list[str] = []
    for seg in window.tombstoned():
        if registry.is_held(seg.seg_id) or _referenced(window, seg.seg_id):
            continue
        trail.record("purge", [seg.seg_id], "tombstoned and unreferenced", {seg.seg_id: seg.digest})
        window.purge(seg.seg_id)
        freed.append(seg.seg_id)
    return freed
