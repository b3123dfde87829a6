"""Audit log of every compaction and pruning decision."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class AuditEntry:
    action: str
    span_ids: list[str]
    reason: str
    evidence: dict[str, Any] = field(default_factory=dict)
    at: float = field(default_factory=time.time)


class AuditLog:
    def __init__(self, max_entries: int = 500) -> None:
        self.entries: list[AuditEntry] = []
        self.max_entries = max_entries

    def record(self, action: str, span_ids: list[str], reason: str, **evidence: Any) -> AuditEntry:
        entry = AuditEntry(action=action, span_ids=list(span_ids), reason=reason, evidence=evidence)
        self.entries.append(entry)
        return entry

    def reasons_for(self, span_id: str) -> list[str]:
        return [e.reason for e in self.entries if span_id in e.span_ids]

    def rotate(self) -> None:
        """Keep the in-memory log bounded for long-lived desks."""
        while len(self.entries) > self.max_entries:
            self.entries.pop(0)

    def dump(self, path: str) -> None:
        with open(path, "a", encoding="utf-8") as fh:
            for entry in self.entries:
                fh.write(json.dumps(entry.__dict__) + "\n")
