"""Decision log: one JSON object per line, appended by every stage that edits context."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Iterator


class DecisionLog:
    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)

    def append(self, action: str, **fields: Any) -> dict:
        entry = {"ts": time.time(), "action": action, **fields}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry, ensure_ascii=False, default=str) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        return entry

    def __iter__(self) -> Iterator[dict]:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as fh:
            for line in fh:
                line = line.strip()
                if line:
                    yield json.loads(line)

    def find(self, **match: Any) -> list[dict]:
        return [e for e in self if all(e.get(k) == v for k, v in match.items())]

    def last(self, action: str) -> dict | None:
        hit = None
        for e in self:
            if e.get("action") == action:
                hit = e
        return hit

    def trim(self, keep: int = 20000) -> int:
        if not self.path.exists():
            return 0
        lines = self.path.read_text("utf-8").splitlines()
        extra = len(lines) - keep
        if extra <= 0:
            return 0
        self.path.write_text("\n".join(lines[extra:]) + "\n", "utf-8")
        return extra
