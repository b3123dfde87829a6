"""Decision log for every edit the engine makes to the window."""
import re
import time
from pathlib import Path
from typing import Iterable, Optional

from pydantic import BaseModel, ConfigDict, Field


class Decision(BaseModel):
    model_config = ConfigDict(frozen=True)

    entry_no: int
    action: str
    seg_ids: tuple[str, ...]
    rationale: str
    evidence: dict[str, str] = Field(default_factory=dict)  # seg_id -> digest at decision time
    at: float = Field(default_factory=time.time)


class AuditTrail:
    def __init__(self, path: Optional[Path] = None) -> None:
        self._entries: list[Decision] = []
        self._path = path

    def record(
        self, action: str, seg_ids: Iterable[str], rationale: str, evidence: Optional[dict[str, str]] = None
    ) -> Decision:
        entry = Decision(
            entry_no=len(self._entries),
            action=action,
            seg_ids=tuple(seg_ids),
            rationale=rationale,
            evidence=evidence or {},
        )
        self._entries.append(entry)
        if self._path is not None:
            with self._path.open("a", encoding="utf-8") as fh:
                fh.write(entry.model_dump_json() + "\n")
        return entry

    def entries(self) -> tuple[Decision, ...]:
        return tuple(self._entries)

    def mentions(self, seg_id: str) -> bool:
        return any(seg_id in e.seg_ids for e in self._entries)

    def scrub_rationale(self, pattern: re.Pattern[str]) -> int:
        """Remove PII that leaked into rationales (compliance request)."""
        fixed = 0
        for i, entry in enumerate(self._entries):
            if not pattern.search(entry.rationale):
                continue
            self._entries[i] = entry.model_copy(
                update={"rationale": pattern.sub("[redacted]", entry.rationale)}
            )
            fixed += 1
        return fixed

    def rotate(self, keep: int = 5000) -> int:
        excess = len(self._entries) - keep
        if excess <= 0:
            return 0
        del self._entries[:excess]
        return excess
