"""Decision log for context edits (prunes, compactions, rewrites)."""
from __future__ import annotations

import dataclasses
import json
import threading
from pathlib import Path
from typing import Optional, Sequence, Tuple

from .models import Decision


class DecisionLog:
    def __init__(self, path: Optional[Path] = None) -> None:
        self._path = path
        self._entries: list[Decision] = []
        self._mu = threading.Lock()

    def record(
        self,
        op: str,
        target_ids: Sequence[str],
        rationale: str,
        evidence: Sequence[Tuple[str, str, str]] = (),
    ) -> Decision:
        with self._mu:
            entry = Decision(
                seq=len(self._entries),
                op=op,
                target_ids=tuple(target_ids),
                rationale=rationale,
                evidence=tuple(evidence),
            )
            self._entries.append(entry)
            if self._path is not None:
                self._path.parent.mkdir(parents=True, exist_ok=True)
                with self._path.open("a") as fh:
                    fh.write(json.dumps(dataclasses.asdict(entry)) + "\n")
        return entry

    def entries(self) -> Tuple[Decision, ...]:
        return tuple(self._entries)

    def about(self, target_id: str) -> Tuple[Decision, ...]:
        return tuple(e for e in self._entries if target_id in e.target_ids)

    def annotate(self, seq: int, note: str) -> Decision:
        """Attach reviewer feedback to a past decision."""
        with self._mu:
            old = self._entries[seq]
            self._entries[seq] = dataclasses.replace(old, rationale=f"{old.rationale} [review: {note}]")
            return self._entries[seq]
