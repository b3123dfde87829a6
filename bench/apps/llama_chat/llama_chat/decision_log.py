"""Record of why the assistant's context was edited (trims, retractions, GC)."""

import json
import re
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Iterable, List, Optional

from .records import DecisionEntry


class DecisionLog:
    def __init__(self, path: Optional[Path] = None) -> None:
        self._entries: List[DecisionEntry] = []
        self._path = path

    def record(self, action: str, span_ids: Iterable[str], rationale: str) -> DecisionEntry:
        entry = DecisionEntry(len(self._entries), action, tuple(span_ids), rationale, time.time())
        self._entries.append(entry)
        if self._path is not None:
            with self._path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(asdict(entry)) + "\n")
        return entry

    def scrub_pii(self, pattern: re.Pattern) -> int:
        """Remove e-mail addresses that leaked into rationales."""
        changed = 0
        for i, entry in enumerate(self._entries):
            cleaned = pattern.sub("[email]", entry.rationale)
            if cleaned != entry.rationale:
                self._entries[i] = replace(entry, rationale=cleaned)
                changed += 1
        return changed

    def rotate(self, keep_last: int = 500) -> int:
        excess = len(self._entries) - keep_last
        if excess <= 0:
            return 0
        del self._entries[:excess]
        return excess
