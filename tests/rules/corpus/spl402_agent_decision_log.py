# rules: SPL402
"""An agent that keeps a decision log and, in places, edits it."""
from dataclasses import dataclass, field


@dataclass
class Decision:
    action: str
    span_id: str
    reason: str
    at: float = 0.0


@dataclass
class Agent:
    decision_log: list[Decision] = field(default_factory=list)
    spans: dict = field(default_factory=dict)

    def record(self, decision: Decision) -> None:
        self.decision_log.append(decision)

    def record_many(self, decisions: list[Decision]) -> None:
        self.decision_log.extend(decisions)
        self.decision_log += [Decision("batch", "-", "end of batch")]

    def undo_last(self) -> Decision:
        return self.decision_log.pop()  # expect: SPL402

    def retract(self, decision: Decision) -> None:
        self.decision_log.remove(decision)  # expect: SPL402

    def reset(self) -> None:
        self.decision_log.clear()  # expect: SPL402

    def reorder(self) -> None:
        self.decision_log.sort(key=lambda d: d.at)  # expect: SPL402

    def backfill(self, decision: Decision) -> None:
        self.decision_log.insert(0, decision)  # expect: SPL402

    def amend(self, i: int, reason: str) -> None:
        self.decision_log[i] = Decision(self.decision_log[i].action, self.decision_log[i].span_id, reason)  # expect: SPL402

    def drop_history(self) -> None:
        del self.decision_log[:-50]  # expect: SPL402

    def latest(self) -> Decision | None:
        return self.decision_log[-1] if self.decision_log else None

    def chronological(self) -> list[Decision]:
        return sorted(self.decision_log, key=lambda d: d.at)

    def about(self, span_id: str) -> list[Decision]:
        return [d for d in self.decision_log if d.span_id == span_id]
