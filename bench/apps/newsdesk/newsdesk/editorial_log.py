"""Every kill/correct decision an editor makes, in order."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from typing import List


@dataclass(frozen=True)
class Decision:
    at: str
    editor: str
    action: str
    doc_ids: tuple
    reason: str


class EditorialLog:
    def __init__(self) -> None:
        self._decisions: List[Decision] = []

    def note(self, editor: str, action: str, doc_ids, reason: str) -> Decision:
        d = Decision(dt.datetime.now(dt.timezone.utc).isoformat(), editor, action, tuple(doc_ids), reason)
        self._decisions.append(d)
        return d

    def export(self) -> List[dict]:
        return [asdict(d) for d in self._decisions]

    def retract(self, doc_id: str) -> None:
        """An editor withdraws a kill decision."""
        self._decisions = [d for d in self._decisions if doc_id not in d.doc_ids]
