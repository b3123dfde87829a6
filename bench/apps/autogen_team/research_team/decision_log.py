"""Append-only log of context-editing decisions (prunes, rewrites, GC)."""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional


@dataclass
class Decision:
    action: str
    targets: List[str]
    rationale: str
    evidence: Dict[str, str] = field(default_factory=dict)
    entry_id: str = field(default_factory=lambda: uuid.uuid4().hex[:10])
    at: float = field(default_factory=time.time)
    supersedes: Optional[str] = None


class DecisionLog:
    def __init__(self) -> None:
        self._entries: List[Decision] = []

    def __len__(self) -> int:
        return len(self._entries)

    def entries(self) -> List[Decision]:
        return list(self._entries)

    def record(self, action: str, targets: List[str], rationale: str, **evidence: str) -> Decision:
        entry = Decision(action=action, targets=list(targets), rationale=rationale, evidence=dict(evidence))
        self._entries.append(entry)
        return entry

    def correct(self, entry_id: str, rationale: str) -> Decision:
        prior = next(e for e in self._entries if e.entry_id == entry_id)
        fix = Decision(
            action=prior.action,
            targets=list(prior.targets),
            rationale=rationale,
            evidence=dict(prior.evidence),
            supersedes=prior.entry_id,
        )
        self._entries.append(fix)
        return fix

    def reword(self, entry_id: str, rationale: str) -> None:
        for entry in self._entries:
            if entry.entry_id == entry_id:
                entry.rationale = rationale
                entry.at = time.time()
                return

    def covers(self, target: str) -> bool:
        return any(target in e.targets for e in self._entries)

    def to_state(self) -> Dict[str, Any]:
        return {"entries": [asdict(e) for e in self._entries]}

    def load_state(self, state: Dict[str, Any]) -> None:
        known = {e.entry_id for e in self._entries}
        for row in state.get("entries", []):
            if row.get("entry_id") not in known:
                self._entries.append(Decision(**row))

    def dump_jsonl(self, path: str) -> None:
        with open(path, "a", encoding="utf-8") as fh:
            for entry in self._entries:
                fh.write(json.dumps(asdict(entry)) + "\n")
