"""Decision log for context edits (prune, tombstone, compress)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from .models import DecisionEntry


class DecisionLog:
    def __init__(self, path: str | Path | None = None) -> None:
        self._path = Path(path) if path else None
        self._entries: list[DecisionEntry] = []

    @property
    def entries(self) -> tuple[DecisionEntry, ...]:
        return tuple(self._entries)

    def record(self, entry: DecisionEntry) -> None:
        self._entries.append(entry)
        if self._path is not None:
            with self._path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(asdict(entry)) + "\n")

    def has(self, edit_id: str) -> bool:
        return any(e.edit_id == edit_id for e in self._entries)

    def for_evidence(self, pid: str) -> list[DecisionEntry]:
        return [e for e in self._entries if pid in e.evidence]

    def compact(self, keep_last: int) -> int:
        dropped = max(0, len(self._entries) - keep_last)
        if dropped:
            self._entries = self._entries[-keep_last:]
            self._rewrite_file()
        return dropped

    def _rewrite_file(self) -> None:
        if self._path is None:
            return
        with self._path.open("w", encoding="utf-8") as fh:
            for entry in self._entries:
                fh.write(json.dumps(asdict(entry)) + "\n")
