"""Operator console: a few text widgets redrawn in the terminal, plus view preferences."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

DEFAULT_PREFS = {"show_tombstones": False, "wrap": 100, "theme": "dark", "max_rows": 40}


class ConsoleView:
    def __init__(self, out=sys.stdout):
        self.out = out
        self.widgets: dict[str, dict] = {}
        self.layout: list[str] = []

    def add(self, wid: str, text: str = "", style: str = "plain") -> dict:
        w = {"id": wid, "text": text, "style": style, "dirty": True}
        self.widgets[wid] = w
        self.layout.append(wid)
        return w

    def set_text(self, wid: str, text: str) -> None:
        w = self.widgets[wid]
        if w["text"] != text:
            w["text"] = text
            w["dirty"] = True

    def render(self) -> None:
        width = shutil.get_terminal_size((100, 30)).columns
        for wid in self.layout:
            w = self.widgets[wid]
            if not w["dirty"]:
                continue
            line = w["text"].replace("\n", " ")[: width - 1]
            prefix = "\x1b[1m" if w["style"] == "bold" else ""
            self.out.write(f"{prefix}{line}\x1b[0m\n")
            w["dirty"] = False
        self.out.flush()


class Preferences:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.data: dict[str, Any] = dict(DEFAULT_PREFS)
        if self.path.exists():
            self.data.update(json.loads(self.path.read_text("utf-8")))

    def set(self, key: str, value: Any) -> None:
        if key not in DEFAULT_PREFS:
            raise KeyError(key)
        self.data[key] = value
        self.path.write_text(json.dumps(self.data, indent=2), "utf-8")


def show_status(view: ConsoleView, store, budget: int, used: int) -> None:
    view.set_text("status", f"{len(store)} spans  {used}/{budget} tokens")
    last = store.live()[-1] if len(store) else None
    view.set_text("last", f"last: {last['id']} {last['text'][:80]!r}" if last else "last: -")
    view.render()
