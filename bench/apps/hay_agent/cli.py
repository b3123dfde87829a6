from __future__ import annotations

import sys

from .agent_app import ask, build_agent
from .models import MenuItem

MENU = [MenuItem("ask", "Ask"), MenuItem("quit", "Quit")]


def relabel(item_id: str, text: str) -> None:
    for item in MENU:
        if item.id == item_id:
            item.text = text


def main() -> None:
    agent = build_agent()
    for line in sys.stdin:
        print(ask(agent, line.strip()))
