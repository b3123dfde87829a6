"""Operator dashboard state (rendered by the web console)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Widget:
    widget_id: str
    kind: str
    text: str = ""
    visible: bool = True
    style: dict[str, str] = field(default_factory=dict)


class StatusPanel:
    def __init__(self) -> None:
        self._widgets: dict[str, Widget] = {}
        self.dirty: set[str] = set()

    def mount(self, widget: Widget) -> None:
        self._widgets[widget.widget_id] = widget

    def set_text(self, widget_id: str, text: str) -> None:
        w = self._widgets[widget_id]
        if w.text != text:
            w.text = text
            self.dirty.add(widget_id)

    def show_turn(self, turn: int, tokens_used: int, limit: int) -> None:
        self.set_text("turn", f"Turn {turn}")
        self.set_text("budget", f"{tokens_used:,} / {limit:,} tokens")
        self._widgets["budget"].style["color"] = "red" if tokens_used > limit else "inherit"
