"""Web layer: HTTP request shapes, idempotent retries and note-card view-models."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any


def normalize_payload(payload: dict[str, Any]) -> dict[str, Any]:
    """Accept the legacy mobile client's shape ({'id', 'body'}) as well."""
    if "body" in payload and "text" not in payload:
        payload["text"] = payload.pop("body")
    payload["text"] = str(payload.get("text", "")).strip()
    payload.setdefault("tags", [])
    return payload


class IdempotencyCache:
    """Replays the stored response when a client retries the same request id."""

    def __init__(self, ttl_s: float = 300.0) -> None:
        self._ttl_s = ttl_s
        self._responses: dict[str, tuple[float, dict[str, Any]]] = {}

    def get(self, request_id: str) -> dict[str, Any] | None:
        entry = self._responses.get(request_id)
        if entry is None or time.time() - entry[0] > self._ttl_s:
            return None
        return entry[1]

    def put(self, request_id: str, response: dict[str, Any]) -> None:
        self._responses[request_id] = (time.time(), response)


@dataclass
class NoteCard:
    id: str
    text: str
    collapsed: bool = True

    def set_text(self, text: str) -> None:
        self.text = text
        self.collapsed = len(text) > 280

