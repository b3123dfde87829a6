"""Small operator console: widgets, settings and an HTTP webhook payload."""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Label:
    id: str
    text: str
    visible: bool = True

    def set_text(self, text: str) -> None:
        self.text = text


@dataclass
class Settings:
    id: str = "default"
    values: dict[str, Any] = field(default_factory=dict)

    def update(self, key: str, value: Any) -> None:
        self.values[key] = value


class StatusPanel:
    def __init__(self) -> None:
        self.labels: dict[str, Label] = {}

    def show(self, label_id: str, text: str) -> None:
        lbl = self.labels.setdefault(label_id, Label(id=label_id, text=""))
        lbl.set_text(text)


def webhook_payload(event_id: str, body: str) -> dict[str, Any]:
    payload = {"id": event_id, "content": body}
    payload["content"] = json.dumps({"text": body})
    return payload


class JobQueue:
    def __init__(self) -> None:
        self._q: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def retry(self, msg: dict[str, Any]) -> None:
        msg["content"] = msg.get("content", "")
        msg["attempts"] = msg.get("attempts", 0) + 1
        await self._q.put(msg)
