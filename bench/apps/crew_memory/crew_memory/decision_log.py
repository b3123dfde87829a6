"""Decision log for context edits made by the crew."""

import time
import uuid
from typing import Iterable, TypedDict


class Decision(TypedDict):
    entry_id: str
    edit: str
    span_ids: list[str]
    rationale: str
    evidence: list[str]
    at: float


class DecisionLog:
    def __init__(self) -> None:
        self._entries: list[Decision] = []

    def record(self, edit: str, span_ids: Iterable[str], rationale: str,
               evidence: Iterable[str] = ()) -> Decision:
        entry = Decision(entry_id=uuid.uuid4().hex[:12], edit=edit, span_ids=list(span_ids),
                         rationale=rationale, evidence=list(evidence), at=time.time())
        self._entries.append(entry)
        return entry

    def amend(self, entry_id: str, rationale: str) -> None:
        """Correct the rationale of an entry after reviewer feedback."""
        for entry in self._entries:
            if entry["entry_id"] == entry_id:
                entry["rationale"] = rationale
                return
        raise KeyError(entry_id)
