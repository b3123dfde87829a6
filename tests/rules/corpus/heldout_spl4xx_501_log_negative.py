# rules: SPL402
"""Held-out: decision logs that are only appended to or read, and look-alikes."""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field


@dataclass
class AuditLog:
    entries: list[dict] = field(default_factory=list)

    def record(self, **entry) -> None:
        self.entries.append(entry)

    def __iter__(self):
        return iter(self.entries)


def summarize(items) -> str:
    return "; ".join(str(i) for i in items)


def compact(spans, keep: int):
    return spans[-keep:]


class Agent:
    def __init__(self) -> None:
        self.decision_log: list[dict] = []
        self.audit_log = AuditLog()
        self.decisions: list[dict] = []
        self.journal: list[str] = []
        self.provenance = AuditLog()
        self.ledger: list[dict] = []
        self.messages: list[dict] = []
        self.spans: list[dict] = []
        self.cache: dict[str, str] = {}
        self.pending: list[str] = []

    def note(self, op: str, span_id: str) -> None:
        self.decision_log.append({"op": op, "span": span_id})

    def note_audit(self, span_id: str) -> None:
        self.audit_log.record(op="prune", span=span_id)

    def note_batch(self, batch: list[dict]) -> None:
        self.decisions.extend(batch)

    def note_more(self, batch: list[dict]) -> None:
        self.decisions += batch

    def last_decision(self) -> dict | None:
        return self.decision_log[-1] if self.decision_log else None

    def recent_audit(self) -> list[dict]:
        return self.audit_log.entries[-10:]

    def sorted_view(self) -> list[dict]:
        return sorted(self.decisions, key=lambda d: d["ts"])

    def copy_and_trim(self) -> list[dict]:
        snapshot = list(self.decisions)
        snapshot.pop()
        return snapshot

    def export(self, path: str) -> None:
        with open(path, "w") as fh:
            json.dump(self.decision_log, fh)

    def summarize_conversation(self) -> str:
        return summarize(self.messages)

    def compact_spans(self) -> None:
        self.spans = compact(self.spans, keep=50)

    def take_pending(self) -> str:
        return self.pending.pop(0)

    def invalidate(self, key: str) -> None:
        del self.cache[key]

    def write_journal(self, line: str) -> None:
        self.journal.append(line)

    def add_provenance(self, source: str) -> None:
        self.provenance.record(source=source)

    def count_by_op(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for d in self.decision_log:
            counts[d["op"]] = counts.get(d["op"], 0) + 1
        return counts


def record_prune(agent: Agent, span_id: str, user: str) -> None:
    audit = {"op": "prune", "span": span_id}
    audit["actor"] = user
    agent.audit_log.record(**audit)


def new_run() -> AuditLog:
    decisions = []
    decisions.append({"op": "start"})
    return AuditLog(entries=decisions)


def log_to_stdlib(message: str) -> None:
    audit_logger = logging.getLogger("audit")
    audit_logger.handlers.clear()
    audit_logger.info(message)


class Account:
    def __init__(self) -> None:
        self.balance = 0
        self.ledger_name = "main"

    def reset_balance(self) -> None:
        self.balance = 0


def strip_digest(headers: dict) -> dict:
    headers.pop("digest", None)
    return headers


def render(decision_log: list[dict]) -> str:
    return "\n".join(f"{d['op']}: {d.get('reason', '')}" for d in decision_log)


def journal_write(journal, span_id: str, reason: str) -> None:
    journal.write(json.dumps({"span": span_id, "reason": reason}) + "\n")


def copy_entries(provenance: AuditLog) -> list[dict]:
    return provenance.entries.copy()


# Debatable on re-reading the spec: the summary is a new value, the log is only read.
def digest(agent: Agent) -> str:
    return summarize(agent.journal)


def summarize_history(summarizer, audit_log: list[dict]) -> str:
    return summarizer.summarize(audit_log)


def note_prune(decision_log: list[dict], span_id: str, reason: str) -> None:
    decision_log.append({"op": "prune", "span": span_id, "reason": reason})


def prune_with_note(agent: Agent, index: int) -> None:
    note_prune(agent.decision_log, agent.spans[index]["id"], "budget")
    del agent.spans[index]
