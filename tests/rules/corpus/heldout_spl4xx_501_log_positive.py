# rules: SPL402
"""Held-out: decision logs edited after the fact instead of appended to."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


class Decision(NamedTuple):
    op: str
    span_id: str
    reason: str
    ts: float


@dataclass
class AuditLog:
    entries: list[Decision] = field(default_factory=list)

    def record(self, decision: Decision) -> None:
        self.entries.append(decision)


def summarize(items) -> str:
    return "; ".join(str(i) for i in items)


def prune(items, keep: int):
    return items[-keep:]


class Agent:
    def __init__(self) -> None:
        self.decision_log: list[Decision] = []
        self.audit_log = AuditLog()
        self.decisions: list[Decision] = []
        self.journal: list[str] = []
        self.provenance = AuditLog()
        self.ledger: list[dict] = []

    def undo_last(self) -> None:
        self.decision_log.pop()  # expect: SPL402

    def drop_first_entry(self) -> None:
        del self.audit_log.entries[0]  # expect: SPL402

    def retract(self, decision: Decision) -> None:
        self.decisions.remove(decision)  # expect: SPL402

    def reset(self) -> None:
        self.journal.clear()  # expect: SPL402

    def backdate(self, decision: Decision) -> None:
        self.decisions.insert(0, decision)  # expect: SPL402

    def amend(self, index: int, decision: Decision) -> None:
        self.decision_log[index] = decision  # expect: SPL402

    def wipe(self) -> None:
        self.decision_log[:] = []  # expect: SPL402

    def cap(self, keep: int) -> None:
        self.audit_log.entries = self.audit_log.entries[-keep:]  # expect: SPL402

    def reorder(self) -> None:
        self.decisions.sort(key=lambda d: d.ts)  # expect: SPL402

    def compact_log(self) -> None:
        self.ledger = prune(self.ledger, keep=100)  # expect: SPL402

    def digest(self) -> None:
        summarize(self.journal)  # expect: SPL402

    def drop_oldest_provenance(self) -> Decision:
        return self.provenance.entries.pop(0)  # expect: SPL402

    def retract_last(self) -> None:
        del self.decisions[-1]  # expect: SPL402

    def truncate(self) -> None:
        del self.ledger[:10]  # expect: SPL402

    def sort_provenance(self) -> None:
        self.provenance.entries.sort()  # expect: SPL402

    def rewrite_history(self, decision: Decision) -> None:
        self.decision_log.pop()  # expect: SPL402
        self.decision_log.insert(0, decision)  # expect: SPL402

    def redact_entry(self, i: int) -> None:
        self.audit_log.entries[i] = self.audit_log.entries[i]._replace(reason="[redacted]")  # expect: SPL402

    def clear_audit(self) -> None:
        self.audit_log.entries.clear()  # expect: SPL402

    def backfill(self, header: Decision) -> None:
        self.provenance.entries.insert(0, header)  # expect: SPL402

    def forget(self, entry: dict) -> None:
        self.ledger.remove(entry)  # expect: SPL402


class Compactor:
    def compact(self, log):
        return log[-10:]


async def nightly_compaction(compactor: Compactor, agent: Agent) -> None:
    agent.journal = compactor.compact(agent.journal)  # expect: SPL402


def reset_entries(decision_log: AuditLog) -> None:
    decision_log.entries = []  # expect: SPL402


async def summarize_history(summarizer, audit_log: list[Decision]) -> None:
    await summarizer.summarize(audit_log)  # expect: SPL402


def trim_journal(journal: list[str], keep: int) -> None:
    while len(journal) > keep:
        journal.pop(0)  # expect: SPL402


def scrub(decisions: list[dict], secret: str) -> None:
    for i, d in enumerate(decisions):
        if secret in d.get("reason", ""):
            decisions[i] = {**d, "reason": "[redacted]"}  # expect: SPL402
