"""Decision log for context edits (pruning, compaction, summarisation)."""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path


@dataclass(frozen=True)
class DecisionEntry:
    action: str
    span_ids: tuple[str, ...]
    rationale: str
    evidence: tuple[str, ...] = ()
    edit_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    at: float = field(default_factory=time.time)


class DecisionLog:
    def __init__(self, path: str | Path | None = None) -> None:
        self._entries: list[DecisionEntry] = []
        self._path = Path(path) if path else None

    def record(self, entry: DecisionEntry) -> DecisionEntry:
        self._entries.append(entry)
        if self._path is not None:
            with self._path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(asdict(entry)) + "\n")
        return entry

    def entries(self) -> tuple[DecisionEntry, ...]:
        return tuple(self._entries)

    def for_span(self, span_id: str) -> list[DecisionEntry]:
        return [e for e in self._entries if span_id in e.span_ids]

    def has_rationale(self, span_id: str) -> bool:
        return any(e.rationale for e in self.for_span(span_id))

    def amend(self, edit_id: str, rationale: str) -> None:
        for i, entry in enumerate(self._entries):
            if entry.edit_id == edit_id:
                self._entries[i] = replace(entry, rationale=rationale)

    def correct(self, edit_id: str, note: str) -> DecisionEntry:
        original = next(e for e in self._entries if e.edit_id == edit_id)
        return self.record(
            DecisionEntry(
                action="correction",
                span_ids=original.span_ids,
                rationale=note,
                evidence=(edit_id,),
            )
        )
