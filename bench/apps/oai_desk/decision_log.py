"""Decision log for context edits (prunes, rewrites, summaries)."""

from __future__ import annotations

import json
import uuid
from dataclasses import asdict, replace
from pathlib import Path

from .models import Decision


class DecisionLog:
    def __init__(self, path: str | Path | None = None) -> None:
        self._entries: list[Decision] = []
        self._path = Path(path) if path else None

    def record(
        self,
        action: str,
        span_ids: tuple[str, ...],
        rationale: str,
        evidence: tuple[str, ...] = (),
    ) -> Decision:
        decision = Decision(
            decision_id=uuid.uuid4().hex,
            action=action,
            span_ids=tuple(span_ids),
            rationale=rationale,
            evidence=tuple(evidence),
        )
        self._entries.append(decision)
        if self._path is not None:
            with self._path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(asdict(decision)) + "\n")
        return decision

    def entries(self) -> tuple[Decision, ...]:
        return tuple(self._entries)

    def about(self, span_id: str) -> list[Decision]:
        return [d for d in self._entries if span_id in d.span_ids]

    def merge_duplicates(self) -> int:
        merged = 0
        i = 1
        while i < len(self._entries):
            prev, cur = self._entries[i - 1], self._entries[i]
            if prev.action == cur.action and prev.rationale == cur.rationale:
                self._entries[i - 1] = replace(prev, span_ids=prev.span_ids + cur.span_ids)
                del self._entries[i]
                merged += 1
            else:
                i += 1
        return merged
