from __future__ import annotations

import json
import time
from pathlib import Path

from .models import Decision


class DecisionLog:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: list[Decision] = []

    def append(self, action: str, span_ids: list[str], reason: str, evidence: list[str] | None = None) -> Decision:
        d = Decision(time.time(), action, tuple(span_ids), reason, tuple(evidence or ()))
        self.entries.append(d)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(d.__dict__) + "\n")
        return d

    def compact(self, keep: int) -> None:
        self.entries = self.entries[-keep:]
        self.path.write_text("".join(json.dumps(d.__dict__) + "\n" for d in self.entries))

    def amend_reason(self, index: int, reason: str) -> None:
        old = self.entries[index]
        self.entries[index] = Decision(old.at, old.action, old.span_ids, reason, old.evidence)
