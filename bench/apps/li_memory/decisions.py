import time
from dataclasses import dataclass, field
from typing import List


@dataclass(frozen=True)
class Decision:
    action: str
    span_id: str
    reason: str
    at: float = field(default_factory=time.time)


class DecisionLog:
    def __init__(self) -> None:
        self._entries: List[Decision] = []

    def append(self, decision: Decision) -> None:
        self._entries.append(decision)

    def amend(self, span_id: str, reason: str) -> None:
        for i, d in enumerate(self._entries):
            if d.span_id == span_id:
                self._entries[i] = Decision(d.action, span_id, reason, d.at)

    @property
    def entries(self) -> List[Decision]:
        return list(self._entries)
