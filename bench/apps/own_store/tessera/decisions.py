"""Decision log: one JSON object per line, written before the edit it explains."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional, TypedDict

import attrs


class Decision(TypedDict, total=False):
    ts: float
    edit_id: str
    op: str
    span_ids: list[str]
    rationale: str
    evidence: list[dict[str, Any]]
    derived_from: list[str]


@attrs.define
class DecisionLog:
    path: Path = attrs.field(converter=Path)
    fsync: bool = True
    _lock: threading.Lock = attrs.field(factory=threading.Lock, init=False, repr=False)

    def append(self, entry: Decision) -> None:
        entry = {"ts": time.time(), **entry}
        line = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        with self._lock, self.path.open("a", encoding="utf-8") as fh:
            fh.write(line + "\n")
            fh.flush()
            if self.fsync:
                os.fsync(fh.fileno())

    def entries(self) -> Iterator[Decision]:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as fh:
            for line in fh:
                line = line.strip()
                if line:
                    yield json.loads(line)

    def has(self, edit_id: str) -> bool:
        return any(e.get("edit_id") == edit_id for e in self.entries())

    def for_span(self, span_id: str) -> list[Decision]:
        return [e for e in self.entries() if span_id in e.get("span_ids", ())]

    def scrub(self, span_ids: Iterable[str], *, keep_after: Optional[float] = None) -> int:
        gone = set(span_ids)
        rows = list(self.entries())
        kept = [
            r
            for r in rows
            if not gone.intersection(r.get("span_ids", ()))
            or (keep_after is not None and r.get("ts", 0) >= keep_after)
        ]
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        with self._lock:
            with tmp.open("w", encoding="utf-8") as fh:
                for r in kept:
                    fh.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")
            os.replace(tmp, self.path)
        return len(rows) - len(kept)
