"""Decision log for context edits."""

from __future__ import annotations

import json
import threading
import uuid
from typing import Iterable, Iterator

from atomic_agents.context import Message

from .models import DecisionEntry, SpanBody


def evidence_for(messages: Iterable[Message]) -> tuple[tuple[str, int, str], ...]:
    out = []
    for msg in messages:
        body = msg.content
        if isinstance(body, SpanBody):
            out.append((body.span_id, body.version, body.content_hash))
    return tuple(out)


class DecisionLog:
    def __init__(self) -> None:
        self._entries: list[DecisionEntry] = []
        self._lock = threading.Lock()

    def new_edit_id(self) -> str:
        return f"edit-{uuid.uuid4().hex[:12]}"

    def record(self, edit_id: str, action: str, span_ids: Iterable[str], rationale: str,
               evidence: tuple[tuple[str, int, str], ...] = ()) -> DecisionEntry:
        entry = DecisionEntry(
            edit_id=edit_id,
            action=action,
            span_ids=tuple(span_ids),
            rationale=rationale,
            evidence=evidence,
        )
        with self._lock:
            self._entries.append(entry)
        return entry

    def has(self, edit_id: str) -> bool:
        return any(e.edit_id == edit_id for e in self._entries)

    def entries(self) -> tuple[DecisionEntry, ...]:
        return tuple(self._entries)

    def __iter__(self) -> Iterator[DecisionEntry]:
        return iter(tuple(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def to_jsonl(self) -> str:
        return "\n".join(
            json.dumps({
                "edit_id": e.edit_id,
                "action": e.action,
                "span_ids": list(e.span_ids),
                "rationale": e.rationale,
                "evidence": [list(x) for x in e.evidence],
                "at": e.at,
            })
            for e in self._entries
        )
