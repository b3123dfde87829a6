"""Append-only log of context edits (prunes, rewrites, summaries, GC)."""

from __future__ import annotations

import json
from pathlib import Path

from .models import ContextSpan, DecisionEntry


class DecisionLog:
    def __init__(self, path: Path | None = None) -> None:
        self._entries: list[DecisionEntry] = []
        self._path = path

    def __iter__(self):
        return iter(tuple(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def record(
        self, action: str, spans: list[ContextSpan], rationale: str
    ) -> DecisionEntry:
        entry = DecisionEntry(
            seq=len(self._entries),
            action=action,  # type: ignore[arg-type]
            span_ids=[s.span_id for s in spans],
            rationale=rationale,
            evidence_hashes={s.span_id: s.content_hash for s in spans},
        )
        self._entries.append(entry)
        if self._path is not None:
            with self._path.open("a", encoding="utf-8") as fh:
                fh.write(entry.model_dump_json() + "\n")
        return entry

    def correct(self, seq: int, rationale: str) -> DecisionEntry:
        original = self._entries[seq]
        entry = DecisionEntry(
            seq=len(self._entries),
            action="correction",
            span_ids=list(original.span_ids),
            rationale=rationale,
            refers_to=original.seq,
        )
        self._entries.append(entry)
        return entry

    def amend_rationale(self, seq: int, rationale: str) -> None:
        entry = self._entries[seq]
        entry.rationale = rationale
        self._flush()

    def forget_span(self, span_id: str) -> int:
        before = len(self._entries)
        self._entries = [e for e in self._entries if span_id not in e.span_ids]
        self._flush()
        return before - len(self._entries)

    def reasons_for(self, span_id: str) -> list[str]:
        return [e.rationale for e in self._entries if span_id in e.span_ids]

    def _flush(self) -> None:
        if self._path is None:
            return
        self._path.write_text(
            "".join(json.dumps(e.model_dump(mode="json")) + "\n" for e in self._entries),
            encoding="utf-8",
        )
