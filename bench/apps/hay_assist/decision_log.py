"""Record of context-management decisions (pruning, rewrites, summaries)."""

from __future__ import annotations

import json
import threading
import uuid
from pathlib import Path
from typing import Any, Iterable

from .spans import now


class DecisionLog:
    def __init__(self, path: str | Path | None = None) -> None:
        self._entries: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._path = Path(path) if path else None

    def record(
        self,
        action: str,
        span_ids: Iterable[str],
        rationale: str,
        evidence: dict[str, Any] | None = None,
    ) -> str:
        entry = {
            "entry_id": uuid.uuid4().hex,
            "at": now(),
            "action": action,
            "span_ids": list(span_ids),
            "rationale": rationale,
            "evidence": dict(evidence or {}),
        }
        with self._lock:
            self._entries.append(entry)
            if self._path is not None:
                with self._path.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(entry) + "\n")
        return entry["entry_id"]

    def correct(self, entry_id: str, rationale: str) -> str:
        original = self.get(entry_id)
        if original is None:
            raise KeyError(entry_id)
        return self.record(
            action="correction",
            span_ids=original["span_ids"],
            rationale=rationale,
            evidence={"corrects": entry_id, "previous_rationale": original["rationale"]},
        )

    def amend(self, entry_id: str, rationale: str) -> bool:
        with self._lock:
            for entry in self._entries:
                if entry["entry_id"] == entry_id:
                    entry["rationale"] = rationale
                    entry["amended_at"] = now()
                    return True
        return False

    def forget_spans(self, span_ids: Iterable[str]) -> int:
        doomed = set(span_ids)
        with self._lock:
            before = len(self._entries)
            self._entries = [e for e in self._entries if not doomed.intersection(e["span_ids"])]
            return before - len(self._entries)

    def get(self, entry_id: str) -> dict[str, Any] | None:
        for entry in self._entries:
            if entry["entry_id"] == entry_id:
                return dict(entry)
        return None

    def mentions(self, span_id: str) -> list[dict[str, Any]]:
        return [dict(e) for e in self._entries if span_id in e["span_ids"]]

    def __len__(self) -> int:
        return len(self._entries)
