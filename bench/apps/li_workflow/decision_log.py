"""Decision log for context edits (prunes, rewrites, evictions)."""

from __future__ import annotations

import json
import threading
import time
import uuid
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Iterable, Iterator, Optional


@dataclass(frozen=True)
class DecisionEntry:
    edit_id: str
    op: str
    rationale: str
    span_ids: tuple[str, ...] = ()
    evidence: str = ""
    at: float = field(default_factory=time.time)


def new_edit_id(op: str) -> str:
    return f"{op}-{uuid.uuid4().hex[:12]}"


class DecisionLog:
    def __init__(self, path: Optional[Path] = None) -> None:
        self._entries: list[DecisionEntry] = []
        self._path = path
        self._lock = threading.Lock()

    @property
    def entries(self) -> list[DecisionEntry]:
        return self._entries

    def __iter__(self) -> Iterator[DecisionEntry]:
        return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def record(
        self,
        edit_id: str,
        op: str,
        rationale: str,
        span_ids: Iterable[str] = (),
        evidence: str = "",
    ) -> DecisionEntry:
        entry = DecisionEntry(
            edit_id=edit_id,
            op=op,
            rationale=rationale,
            span_ids=tuple(span_ids),
            evidence=evidence,
        )
        with self._lock:
            self._entries.append(entry)
            if self._path is not None:
                with self._path.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(asdict(entry)) + "\n")
        return entry

    def for_span(self, span_id: str) -> list[DecisionEntry]:
        return [e for e in self._entries if span_id in e.span_ids]

    def has(self, edit_id: str) -> bool:
        return any(e.edit_id == edit_id for e in self._entries)

    def amend(self, edit_id: str, rationale: str, evidence: Optional[str] = None) -> None:
        with self._lock:
            for i, entry in enumerate(self._entries):
                if entry.edit_id != edit_id:
                    continue
                self._entries[i] = replace(
                    entry,
                    rationale=rationale,
                    evidence=entry.evidence if evidence is None else evidence,
                )

    @classmethod
    def load(cls, path: Path) -> "DecisionLog":
        log = cls(path=None)
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                raw = json.loads(line)
                raw["span_ids"] = tuple(raw.get("span_ids", ()))
                log._entries.append(DecisionEntry(**raw))
        log._path = path
        return log
