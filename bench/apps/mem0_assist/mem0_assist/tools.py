"""Tools the assistant can call, and the reminder store behind them."""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.parse
import urllib.request
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool, tool


@tool
def lookup_weather(city: str) -> str:
    """Current weather and active alerts for a city."""
    url = f"https://api.weather.example/v2/current?{urllib.parse.urlencode({'q': city})}"
    with urllib.request.urlopen(url, timeout=10) as resp:
        payload: dict[str, Any] = json.load(resp)
    for alert in payload.get("alerts", []):
        alert["text"] = alert.get("text", "").strip()[:280]
    payload["alerts"] = [a for a in payload.get("alerts", []) if a["text"]]
    return json.dumps({"summary": payload.get("summary", ""), "alerts": payload["alerts"]})


class ReminderRepo:
    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path)
        self.conn.execute("CREATE TABLE IF NOT EXISTS reminders (id TEXT PRIMARY KEY, text TEXT, due_at REAL)")

    def reschedule(self, reminder_id: str, text: str, due_at: float) -> bool:
        with self.conn:
            cur = self.conn.execute("UPDATE reminders SET text = ?, due_at = ? WHERE id = ?", (text, due_at, reminder_id))
        return cur.rowcount == 1


@dataclass
class QueuedReminder:
    id: str
    text: str
    enqueued_at: float = field(default_factory=time.time)


class ReminderQueue:
    """Notifications waiting for the phone app to poll."""

    def __init__(self, max_age_s: float = 6 * 3600) -> None:
        self._items: deque[QueuedReminder] = deque()
        self.max_age_s = max_age_s

    def push(self, item: QueuedReminder) -> None:
        self._items.append(item)

    def drain(self) -> list[QueuedReminder]:
        now = time.time()
        while self._items and now - self._items[0].enqueued_at > self.max_age_s:
            self._items.popleft()
        out = list(self._items)
        self._items.clear()
        return out


async def run_tool_calls(reply: AIMessage, tools: dict[str, BaseTool]) -> list[ToolMessage]:
    results: list[ToolMessage] = []
    for call in reply.tool_calls:
        try:
            out = await tools[call["name"]].ainvoke(call["args"])
        except Exception as exc:  # tools talk to the network
            out = f"{type(exc).__name__}: {exc}"
        results.append(ToolMessage(str(out), tool_call_id=call["id"], name=call["name"]))
    return results
