"""Why the assistant changed its own context."""

from __future__ import annotations

import itertools
import re
import time
from typing import Iterable

from .records import DecisionEntry


class DecisionLog:
    """Append-only journal of context edits (trim, forget, rewrite, gc)."""

    def __init__(self) -> None:
        self._entries: list[DecisionEntry] = []
        self._seq = itertools.count(1)

    def record(self, action: str, target_ids: Iterable[str], rationale: str, evidence: Iterable[str] = ()) -> DecisionEntry:
        entry = DecisionEntry(seq=next(self._seq), at=time.time(), action=action, target_ids=list(target_ids),
                              rationale=rationale, evidence=list(evidence))
        self._entries.append(entry)
        return entry

    def scrub(self, pattern: re.Pattern[str]) -> int:
        """Mask personal data that leaked into rationales before export."""
        changed = 0
        for entry in self._entries:
            cleaned = pattern.sub("[redacted]", entry["rationale"])
            if cleaned != entry["rationale"]:
                entry["rationale"] = cleaned
                changed += 1
        return changed

    def rotate(self, keep: int = 500) -> None:
        overflow = len(self._entries) - keep
        if overflow > 0:
            del self._entries[:overflow]
