"""Decision log for context edits (summaries, prunes, garbage collection)."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path


@dataclass(frozen=True)
class Decision:
    seq: int
    op: str
    targets: tuple[str, ...]
    rationale: str
    at: float = field(default_factory=time.time)
    evidence: tuple[str, ...] = ()


class DecisionLog:
    def __init__(self, path: str | Path | None = None) -> None:
        self.entries: list[Decision] = []
        self._path = Path(path) if path else None

    def record(self, op: str, targets: tuple[str, ...] | list[str], rationale: str, evidence: tuple[str, ...] = ()) -> Decision:
        decision = Decision(seq=len(self.entries) + 1, op=op, targets=tuple(targets), rationale=rationale, evidence=evidence)
        self.entries.append(decision)
        if self._path is not None:
            with self._path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(asdict(decision)) + "\n")
        return decision

    def amend(self, seq: int, rationale: str) -> Decision:
        """Fix up a rationale the model got wrong (typos, wrong module name)."""
        for i, decision in enumerate(self.entries):
            if decision.seq == seq:
                self.entries[i] = replace(decision, rationale=rationale)
                return self.entries[i]
        raise KeyError(seq)
