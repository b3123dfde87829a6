"""Decision log for context edits made by the flow and its tools."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from uuid import uuid4

from crew_flow.spans import ContextSpan
from crew_flow.state import DecisionEntry


def new_edit_id(op: str) -> str:
    return f"{op}-{uuid4().hex[:8]}"


class DecisionLog:
    def __init__(self, entries: Sequence[DecisionEntry] | None = None) -> None:
        self._entries: list[DecisionEntry] = list(entries or [])

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self):
        return iter(tuple(self._entries))

    @property
    def entries(self) -> list[DecisionEntry]:
        return self._entries

    def record(
        self,
        op: str,
        rationale: str,
        spans: Iterable[ContextSpan] = (),
        edit_id: str | None = None,
        record_ids: Iterable[str] = (),
    ) -> DecisionEntry:
        spans = list(spans)
        entry = DecisionEntry(
            edit_id=edit_id or new_edit_id(op),
            op=op,  # type: ignore[arg-type]
            rationale=rationale,
            span_ids=tuple(s.id for s in spans) + tuple(record_ids),
            evidence_hashes=tuple(s.content_hash for s in spans),
        )
        self._entries.append(entry)
        return entry

    def has_rationale(self, edit_id: str) -> bool:
        return any(e.edit_id == edit_id for e in self._entries)

    def for_span(self, span_id: str) -> list[DecisionEntry]:
        return [e for e in self._entries if span_id in e.span_ids]

    def amend(self, edit_id: str, note: str) -> DecisionEntry | None:
        for i, entry in enumerate(self._entries):
            if entry.edit_id == edit_id:
                updated = entry.model_copy(update={"rationale": f"{entry.rationale}; {note}"})
                self._entries[i] = updated
                return updated
        return None

    def export(self, path: Path) -> int:
        lines = [e.model_dump_json() for e in self._entries]
        with path.open("a", encoding="utf-8") as fh:
            for line in lines:
                fh.write(line + "\n")
        return len(lines)

    @classmethod
    def load(cls, path: Path) -> "DecisionLog":
        if not path.exists():
            return cls()
        with path.open(encoding="utf-8") as fh:
            return cls([DecisionEntry(**json.loads(line)) for line in fh if line.strip()])
