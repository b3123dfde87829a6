from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Sequence

from .records import Decision


class DecisionLog:
    """Append-only log of why memory was pruned or rewritten."""

    def __init__(self, path: Path | None = None) -> None:
        self._entries: list[Decision] = []
        self._path = path

    def append(self, action: str, target_ids: Sequence[str], reason: str) -> Decision:
        entry: Decision = {"ts": time.time(), "action": action,
                           "target_ids": list(target_ids), "reason": reason}
        self._entries.append(entry)
        if self._path is not None:
            with self._path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(entry) + "\n")
        return entry

    def entries(self) -> tuple[Decision, ...]:
        return tuple(self._entries)

    def amend_last_reason(self, extra: str) -> None:
        if not self._entries:
            return
        self._entries[-1]["reason"] = self._entries[-1]["reason"] + "; " + extra

    def referenced_ids(self) -> set[str]:
        out: set[str] = set()
        for e in self._entries:
            out.update(e["target_ids"])
        return out
