"""Terminal front end: a status panel next to the AutoGen console stream."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from typing import AsyncGenerator, Dict, List

from autogen_agentchat.base import TaskResult
from autogen_agentchat.messages import BaseAgentEvent, BaseChatMessage
from autogen_agentchat.ui import Console


@dataclass
class Widget:
    widget_id: str
    text: str
    width: int = 0
    dirty: bool = True


@dataclass
class StatusPanel:
    widgets: Dict[str, Widget] = field(default_factory=dict)

    def set_text(self, widget_id: str, text: str) -> None:
        widget = self.widgets.setdefault(widget_id, Widget(widget_id, ""))
        if widget.text != text:
            widget.text = text
            widget.width = len(text)
            widget.dirty = True

    def render(self) -> List[str]:
        cols = shutil.get_terminal_size((100, 20)).columns
        lines = []
        for widget in self.widgets.values():
            lines.append(widget.text[:cols])
            widget.dirty = False
        return lines


async def run_with_console(
    stream: AsyncGenerator[BaseAgentEvent | BaseChatMessage | TaskResult, None], panel: StatusPanel
) -> TaskResult:
    result = await Console(stream, output_stats=True)
    panel.set_text("stop", f"stopped: {result.stop_reason or 'done'}")
    panel.set_text("count", f"{len(result.messages)} messages")
    for line in panel.render():
        print(line)
    return result
