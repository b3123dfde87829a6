"""Decision log for context edits (pruning, compaction, redaction)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Decision:
    edit_id: str
    action: str
    span_ids: tuple[str, ...]
    rationale: str
    evidence: tuple[str, ...] = ()
    at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["at"] = self.at.isoformat()
        return d


class DecisionLog:
    def __init__(self, path: Path | None = None) -> None:
        self._entries: list[Decision] = []
        self._path = path
        self._lock = asyncio.Lock()

    @property
    def entries(self) -> Sequence[Decision]:
        return tuple(self._entries)

    def record(
        self,
        edit_id: str,
        action: str,
        span_ids: Sequence[str],
        rationale: str,
        evidence: Sequence[str] = (),
    ) -> Decision:
        entry = Decision(edit_id, action, tuple(span_ids), rationale, tuple(evidence))
        self._entries.append(entry)
        if self._path is not None:
            with self._path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(entry.to_json()) + "\n")
        return entry

    async def arecord(
        self,
        edit_id: str,
        action: str,
        span_ids: Sequence[str],
        rationale: str,
        evidence: Sequence[str] = (),
    ) -> Decision:
        async with self._lock:
            return await asyncio.to_thread(
                self.record, edit_id, action, span_ids, rationale, evidence
            )

    def for_span(self, span_id: str) -> list[Decision]:
        return [e for e in self._entries if span_id in e.span_ids]

    def has(self, edit_id: str) -> bool:
        return any(e.edit_id == edit_id for e in self._entries)
