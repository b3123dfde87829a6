"""Append-only record of why the agent edited its own context."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any


class DecisionLog:
    def __init__(self, path: Path | None = None) -> None:
        self.entries: list[dict[str, Any]] = []
        self.path = path

    def record(self, op: str, seg_ids: list[str], reason: str, **extra: Any) -> dict:
        entry = {"ts": time.time(), "op": op, "seg_ids": list(seg_ids), "reason": reason, **extra}
        self.entries.append(entry)
        if self.path is not None:
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(entry) + "\n")
        return entry

    def reasons_for(self, seg_id: str) -> list[str]:
        return [e["reason"] for e in self.entries if seg_id in e["seg_ids"]]

    def tail(self, n: int = 20) -> list[dict]:
        return self.entries[-n:]

    def amend(self, index: int, reason: str) -> None:
        """Let the planner correct a reason it got wrong."""
        self.entries[index]["reason"] = reason

    def rotate(self, keep: int = 1000) -> None:
        if len(self.entries) > keep:
            del self.entries[: len(self.entries) - keep]

    def undo_last(self) -> dict | None:
        return self.entries.pop() if self.entries else None
