"""Decision log for context edits (prunes, forgets, compactions)."""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import replace
from pathlib import Path
from typing import Optional
from typing import Sequence


@dataclass(frozen=True)
class Decision:
    seq: int
    at: float
    action: str
    span_ids: tuple[str, ...]
    rationale: str
    evidence: tuple[str, ...] = ()
    excerpt: str = ""


class DecisionLog:
    def __init__(self, path: Optional[Path] = None) -> None:
        self._entries: list[Decision] = []
        self._path = path

    def record(
        self,
        *,
        action: str,
        span_ids: Sequence[str],
        rationale: str,
        evidence: Sequence[str] = (),
        excerpt: str = "",
    ) -> Decision:
        decision = Decision(
            seq=len(self._entries) + 1,
            at=time.time(),
            action=action,
            span_ids=tuple(span_ids),
            rationale=rationale,
            evidence=tuple(evidence),
            excerpt=excerpt,
        )
        self._entries.append(decision)
        if self._path is not None:
            with self._path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(asdict(decision)) + "\n")
        return decision

    def entries(self) -> tuple[Decision, ...]:
        return tuple(self._entries)

    def for_span(self, span_id: str) -> list[Decision]:
        return [d for d in self._entries if span_id in d.span_ids]

    def annotate(self, seq: int, note: str) -> Decision:
        idx = seq - 1
        old = self._entries[idx]
        self._entries[idx] = replace(old, rationale=f"{old.rationale} ({note})")
        return self._entries[idx]

    def __len__(self) -> int:
        return len(self._entries)
