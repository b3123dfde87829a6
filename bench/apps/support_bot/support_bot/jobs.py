"""Background follow-up jobs (send survey, close stale tickets)."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field


@dataclass
class FollowUp:
    id: str
    ticket_id: str
    kind: str
    created_at: float = field(default_factory=time.time)
    attempts: int = 0


class FollowUpQueue:
    def __init__(self, max_age_s: float = 86400) -> None:
        self.items: deque[FollowUp] = deque()
        self.max_age_s = max_age_s

    def push(self, job: FollowUp) -> None:
        self.items.append(job)

    def expire(self, now: float | None = None) -> int:
        now = now or time.time()
        before = len(self.items)
        self.items = deque(j for j in self.items if now - j.created_at < self.max_age_s)
        return before - len(self.items)
