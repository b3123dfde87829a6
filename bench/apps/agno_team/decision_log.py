"""Decision log for context edits."""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Iterable, List, Optional, Tuple
from uuid import uuid4

from agno_team.models import DecisionEntry


class DecisionLog:
    def __init__(self, path: Optional[Path] = None) -> None:
        self._entries: List[DecisionEntry] = []
        self._path = path
        if path is not None and path.exists():
            for line in path.read_text().splitlines():
                if line.strip():
                    raw = json.loads(line)
                    raw["target_ids"] = tuple(raw["target_ids"])
                    raw["evidence"] = tuple(raw.get("evidence", ()))
                    self._entries.append(DecisionEntry(**raw))

    def record(self, op: str, target_ids: Iterable[str], rationale: str, evidence: Iterable[str] = ()) -> DecisionEntry:
        entry = DecisionEntry(
            entry_id=uuid4().hex,
            op=op,
            target_ids=tuple(target_ids),
            rationale=rationale,
            evidence=tuple(evidence),
        )
        self._entries.append(entry)
        if self._path is not None:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            with self._path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(asdict(entry)) + "\n")
        return entry

    def entries(self) -> Tuple[DecisionEntry, ...]:
        return tuple(self._entries)

    def for_target(self, span_id: str) -> List[DecisionEntry]:
        return [e for e in self._entries if span_id in e.target_ids]

    def has_rationale_for(self, span_id: str) -> bool:
        return any(span_id in e.target_ids and e.rationale for e in self._entries)

    def rotate(self, keep_last: int = 500) -> int:
        dropped = max(0, len(self._entries) - keep_last)
        if dropped:
            self._entries = self._entries[-keep_last:]
            if self._path is not None:
                self._path.write_text("".join(json.dumps(asdict(e)) + "\n" for e in self._entries))
        return dropped
