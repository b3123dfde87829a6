"""Glue to the case console: transcript panel widgets and push updates."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List

import httpx

from li_workflow.spans import ContextSpan

MAX_PUSH_BODY = 16_000


@dataclass
class Widget:
    widget_id: str
    kind: str
    text: str = ""
    dirty: bool = False


@dataclass
class TranscriptPanel:
    widgets: Dict[str, Widget] = field(default_factory=dict)

    def mount(self, widget_id: str, kind: str = "label") -> Widget:
        w = self.widgets.setdefault(widget_id, Widget(widget_id=widget_id, kind=kind))
        return w

    def set_text(self, widget_id: str, text: str) -> None:
        w = self.widgets[widget_id]
        if w.text != text:
            w.text = text
            w.dirty = True

    def flush(self) -> List[Dict[str, Any]]:
        out = [{"id": w.widget_id, "kind": w.kind, "text": w.text} for w in self.widgets.values() if w.dirty]
        for w in self.widgets.values():
            w.dirty = False
        return out


def preview(span: ContextSpan, width: int = 140) -> str:
    text = span.content.replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def push_update(client: httpx.Client, case_id: str, payload: Dict[str, Any]) -> int:
    body = payload.get("body") or ""
    if len(body) > MAX_PUSH_BODY:
        payload["body"] = body[:MAX_PUSH_BODY]
        payload["truncated"] = True
    resp = client.post(f"/cases/{case_id}/updates", json=payload, timeout=10.0)
    resp.raise_for_status()
    return resp.status_code
