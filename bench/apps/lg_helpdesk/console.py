"""Agent-assist side panel state pushed to the support console over websockets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Tone = Literal["info", "warn", "error"]


@dataclass
class Widget:
    widget_id: str
    kind: Literal["banner", "badge", "text", "button"]
    text: str = ""
    tone: Tone = "info"
    visible: bool = True


@dataclass
class AssistPanel:
    session_id: str
    widgets: dict[str, Widget] = field(default_factory=dict)
    dirty: set[str] = field(default_factory=set)

    def add(self, widget: Widget) -> None:
        self.widgets[widget.widget_id] = widget
        self.dirty.add(widget.widget_id)

    def set_text(self, widget_id: str, text: str, *, tone: Tone | None = None) -> None:
        w = self.widgets[widget_id]
        w.text = text
        if tone:
            w.tone = tone
        self.dirty.add(widget_id)

    def flush(self) -> list[dict]:
        out = [
            {"id": w.widget_id, "kind": w.kind, "text": w.text, "tone": w.tone, "visible": w.visible}
            for wid in sorted(self.dirty)
            if (w := self.widgets.get(wid))
        ]
        self.dirty.clear()
        return out


def show_status(panel: AssistPanel, *, escalated: bool, sentiment: float) -> None:
    panel.set_text("status", "Escalated to tier 2" if escalated else "Handled by assistant",
                   tone="warn" if escalated else "info")
    panel.set_text("sentiment", f"{sentiment:+.2f}", tone="error" if sentiment < -0.5 else "info")
