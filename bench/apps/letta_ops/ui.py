from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass, field

from letta_client import Letta

from .config import get_settings, make_client


@dataclass
class Widget:
    widget_id: str
    text: str = ""
    style: str = ""
    dirty: bool = True


@dataclass
class StatusPanel:
    widgets: dict[str, Widget] = field(default_factory=dict)

    def add(self, widget_id: str, text: str = "", style: str = "") -> Widget:
        w = self.widgets[widget_id] = Widget(widget_id, text, style)
        return w

    def set_text(self, widget_id: str, text: str) -> None:
        w = self.widgets[widget_id]
        if w.text != text:
            w.text = text
            w.dirty = True

    def paint(self, out=sys.stdout) -> None:
        width = shutil.get_terminal_size((100, 20)).columns
        for w in self.widgets.values():
            if w.dirty:
                out.write(f"{w.widget_id:>14} | {w.text[: width - 18]}\n")
                w.dirty = False


def memory_overview(client: Letta, agent_id: str) -> list[tuple[str, int, int, str]]:
    rows = []
    for blk in client.agents.blocks.list(agent_id, limit=100):
        preview = blk.value.replace("\n", " ")[:60]
        rows.append((blk.label or blk.id, len(blk.value), blk.limit or 0, preview))
    return sorted(rows, key=lambda r: r[1] / (r[2] or 1), reverse=True)


def main() -> None:
    s = get_settings()
    client = make_client(s)
    panel = StatusPanel()
    for label, used, limit, preview in memory_overview(client, s.agent_id):
        panel.add(label)
        panel.set_text(label, f"{used}/{limit}  {preview}")
    panel.paint()


if __name__ == "__main__":
    main()
