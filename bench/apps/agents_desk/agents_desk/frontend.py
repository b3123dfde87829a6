"""Thin web layer: panel widgets for the operator console and the REST payloads."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel


@dataclass
class PanelWidget:
    widget_id: str
    title: str
    body: str = ""
    collapsed: bool = False
    last_render: float = field(default_factory=time.time)


class ConsolePanels:
    def __init__(self) -> None:
        self.widgets: dict[str, PanelWidget] = {}

    def show(self, widget_id: str, title: str, body: str) -> PanelWidget:
        w = self.widgets.setdefault(widget_id, PanelWidget(widget_id, title))
        w.title = title
        w.body = body
        w.last_render = time.time()
        return w

    def close_idle(self, max_idle: float = 900.0) -> int:
        now = time.time()
        idle = [wid for wid, w in self.widgets.items() if now - w.last_render > max_idle]
        for wid in idle:
            del self.widgets[wid]
        return len(idle)


class ReplyPayload(BaseModel):
    id: str
    ticket_id: str
    content: str
    footnotes: str = ""


def to_http(payload: ReplyPayload, *, max_chars: int = 8000) -> dict[str, Any]:
    body = payload.model_dump()
    if len(body["content"]) > max_chars:
        body["content"] = body["content"][:max_chars] + "…"
    body["content"] = body["content"].replace("\r\n", "\n")
    return body
