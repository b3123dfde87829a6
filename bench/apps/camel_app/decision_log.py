"""Append-only log of context-editing decisions."""
from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Dict, List, Optional

from camel.storages import JsonStorage


class DecisionLog:
    def __init__(self, path: Optional[Path] = None) -> None:
        self._storage = JsonStorage(path) if path else None
        self.entries: List[Dict[str, object]] = self._storage.load() if self._storage else []

    def record(
        self,
        action: str,
        rationale: str,
        evidence_span: str,
        excerpt: str = "",
        edit_id: Optional[str] = None,
    ) -> Dict[str, object]:
        entry = {
            "edit_id": edit_id or uuid.uuid4().hex,
            "action": action,
            "rationale": rationale,
            "evidence_span": evidence_span,
            "excerpt": excerpt,
            "at": time.time(),
        }
        self.entries.append(entry)
        if self._storage is not None:
            self._storage.save([entry])
        return entry

    def for_span(self, span_id: str) -> List[Dict[str, object]]:
        return [e for e in self.entries if e["evidence_span"] == span_id]

    def has_rationale(self, edit_id: str) -> bool:
        return any(e["edit_id"] == edit_id for e in self.entries)
