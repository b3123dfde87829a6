"""Decision log for context edits (pruning, compaction, summarization)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Iterator

from .models import DecisionEntry


class DecisionLog:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._entries: list[dict] = []
        if self.path.exists():
            with self.path.open() as fh:
                self._entries = [json.loads(line) for line in fh if line.strip()]

    def record(self, entry: DecisionEntry) -> None:
        row = entry.to_json()
        with self._lock:
            with self.path.open("a") as fh:
                fh.write(json.dumps(row) + "\n")
                fh.flush()
            self._entries.append(row)

    def has(self, edit_id: str) -> bool:
        return any(e["edit_id"] == edit_id for e in self._entries)

    def __iter__(self) -> Iterator[dict]:
        return iter(list(self._entries))

    def for_target(self, span_id: str) -> list[dict]:
        return [e for e in self._entries if span_id in e["target_ids"]]

    def amend(self, edit_id: str, rationale: str) -> None:
        with self._lock:
            for e in self._entries:
                if e["edit_id"] == edit_id:
                    e["rationale"] = rationale
            with self.path.open("w") as fh:
                fh.writelines(json.dumps(e) + "\n" for e in self._entries)
