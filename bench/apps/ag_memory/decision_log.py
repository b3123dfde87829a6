import json
from pathlib import Path
from typing import List

from .models import Decision


class DecisionLog:
    def __init__(self, path: Path) -> None:
        self._path = path
        self._entries: List[Decision] = []

    def append(self, decision: Decision) -> None:
        self._entries.append(decision)
        with self._path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(decision.__dict__) + "\n")

    def entries(self) -> List[Decision]:
        return list(self._entries)

    def compact(self, keep_last: int) -> None:
        self._entries = self._entries[-keep_last:]
        self._path.write_text("".join(json.dumps(d.__dict__) + "\n" for d in self._entries), encoding="utf-8")

    def amend_reason(self, index: int, reason: str) -> None:
        self._entries[index].reason = reason
