"""Record of every edit the agent makes to its own context."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Iterable


@dataclass(frozen=True)
class Decision:
    decision_id: str
    action: str
    span_ids: tuple[str, ...]
    rationale: str
    evidence: tuple[str, ...] = ()
    at: float = field(default_factory=time.time)


class DecisionLog:
    def __init__(self, max_entries: int = 20_000) -> None:
        self._entries: list[Decision] = []
        self.max_entries = max_entries

    def __len__(self) -> int:
        return len(self._entries)

    def record(
        self,
        action: str,
        span_ids: Iterable[str],
        rationale: str,
        evidence: Iterable[str] = (),
    ) -> Decision:
        entry = Decision(
            decision_id=uuid.uuid4().hex,
            action=action,
            span_ids=tuple(span_ids),
            rationale=rationale,
            evidence=tuple(evidence),
        )
        self._entries.append(entry)
        return entry

    @property
    def entries(self) -> tuple[Decision, ...]:
        return tuple(self._entries)

    def for_span(self, span_id: str) -> list[Decision]:
        return [e for e in self._entries if span_id in e.span_ids]

    def rotate(self) -> int:
        overflow = len(self._entries) - self.max_entries
        if overflow <= 0:
            return 0
        del self._entries[:overflow]
        return overflow
