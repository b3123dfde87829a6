"""Operator console: a tiny retained-mode panel that mirrors agent status to the terminal."""

from __future__ import annotations

import shutil
import sys
from typing import TextIO

import attrs


@attrs.define
class Widget:
    widget_id: str
    text: str = ""
    visible: bool = True
    style: str = "plain"


@attrs.define
class StatusPanel:
    out: TextIO = sys.stderr
    _widgets: dict[str, Widget] = attrs.field(factory=dict)
    _dirty: set[str] = attrs.field(factory=set)

    def add(self, widget_id: str, text: str = "", style: str = "plain") -> Widget:
        w = self._widgets[widget_id] = Widget(widget_id, text, True, style)
        self._dirty.add(widget_id)
        return w

    def set_text(self, widget_id: str, text: str) -> None:
        w = self._widgets[widget_id]
        width = shutil.get_terminal_size((100, 20)).columns - 4
        w.text = text if len(text) <= width else text[: width - 1] + "…"
        self._dirty.add(widget_id)

    def hide(self, widget_id: str) -> None:
        self._widgets[widget_id].visible = False
        self._dirty.add(widget_id)

    def flush(self) -> None:
        if not self._dirty:
            return
        for wid in sorted(self._dirty):
            w = self._widgets[wid]
            if w.visible:
                self.out.write(f"\r[{w.widget_id}] {w.text}\n")
        self.out.flush()
        self._dirty.clear()
