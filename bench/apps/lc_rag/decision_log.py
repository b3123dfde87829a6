"""Append-only log of every retention and redaction decision.

Each line is a JSON object. Entries are never rewritten: a correction is a new
entry that points at the one it corrects.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable, Iterator


@dataclass(frozen=True)
class Decision:
    entry_id: str
    action: str
    target_ids: tuple[str, ...]
    rationale: str
    evidence: dict = field(default_factory=dict)
    at: float = field(default_factory=time.time)
    supersedes: str | None = None


class DecisionLog:
    def __init__(self, path: str | Path | None = None) -> None:
        self._entries: list[Decision] = []
        self._path = Path(path) if path else None
        if self._path and self._path.exists():
            for line in self._path.read_text(encoding="utf-8").splitlines():
                raw = json.loads(line)
                raw["target_ids"] = tuple(raw["target_ids"])
                self._entries.append(Decision(**raw))

    def __iter__(self) -> Iterator[Decision]:
        return iter(tuple(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def record(
        self,
        action: str,
        target_ids: Iterable[str],
        rationale: str,
        evidence: dict | None = None,
        supersedes: str | None = None,
    ) -> Decision:
        entry = Decision(
            entry_id=uuid.uuid4().hex,
            action=action,
            target_ids=tuple(target_ids),
            rationale=rationale,
            evidence=dict(evidence or {}),
            supersedes=supersedes,
        )
        self._entries.append(entry)
        if self._path:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            with self._path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(asdict(entry)) + "\n")
        return entry

    def correct(self, entry_id: str, rationale: str, reviewer: str) -> Decision:
        original = self.get(entry_id)
        return self.record(
            action=f"correct:{original.action}",
            target_ids=original.target_ids,
            rationale=rationale,
            evidence={"reviewer": reviewer, "original_rationale": original.rationale},
            supersedes=original.entry_id,
        )

    def get(self, entry_id: str) -> Decision:
        for entry in self._entries:
            if entry.entry_id == entry_id:
                return entry
        raise KeyError(entry_id)

    def has_rationale_for(self, target_id: str) -> bool:
        return any(target_id in e.target_ids for e in self._entries)

    def redact_rationale(self, entry_id: str, replacement: str = "[redacted]") -> None:
        """Scrub customer names out of a rationale at a data subject's request."""
        for i, entry in enumerate(self._entries):
            if entry.entry_id == entry_id:
                self._entries[i] = Decision(
                    entry_id=entry.entry_id,
                    action=entry.action,
                    target_ids=entry.target_ids,
                    rationale=replacement,
                    evidence={},
                    at=entry.at,
                )
        self._flush()

    def rotate(self, keep_last: int = 10_000) -> int:
        """Keep the log file from growing without bound."""
        dropped = max(0, len(self._entries) - keep_last)
        if dropped:
            self._entries = self._entries[dropped:]
            self._flush()
        return dropped

    def _flush(self) -> None:
        if not self._path:
            return
        self._path.write_text(
            "".join(json.dumps(asdict(e)) + "\n" for e in self._entries),
            encoding="utf-8",
        )
