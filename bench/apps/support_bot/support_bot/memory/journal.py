"""A JSONL journal of every memory edit the bot makes (append-only)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Iterable


class MemoryJournal:
    def __init__(self, path: str | Path = "memory_journal.jsonl") -> None:
        self.path = Path(path)

    def write(self, action: str, message_ids: Iterable[str], reason: str, **extra) -> None:
        entry = {"ts": time.time(), "action": action, "message_ids": list(message_ids), "reason": reason, **extra}
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry) + "\n")

    def read(self) -> list[dict]:
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text(encoding="utf-8").splitlines() if line]

    def compact(self, keep_last: int = 5000) -> None:
        """Keep the journal file small on the support VMs."""
        lines = self.path.read_text(encoding="utf-8").splitlines(keepends=True)
        self.path.write_text("".join(lines[-keep_last:]), encoding="utf-8")


journal = MemoryJournal()
