"""Command-line front end."""
from __future__ import annotations

import argparse
import asyncio
from dataclasses import dataclass
from typing import List

from .callbacks import StatusBar, attach
from .service import ContextService
from .settings import AppSettings
from .views import span_table, transcript


@dataclass
class MenuItem:
    id: str
    text: str
    enabled: bool = True


MENU: List[MenuItem] = [
    MenuItem("ask", "Ask a question"),
    MenuItem("redact", "Redact personal data"),
    MenuItem("summarize", "Summarize recent turns"),
    MenuItem("spans", "Show context spans"),
    MenuItem("quit", "Quit"),
]


def relabel(menu: List[MenuItem], item_id: str, text: str) -> None:
    for item in menu:
        if item.id == item_id:
            item.text = text


def main(argv: List[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="ctxkeeper")
    ap.add_argument("--retire", nargs="*", default=[])
    args = ap.parse_args(argv)

    svc = ContextService(AppSettings())
    bar = StatusBar()
    attach(svc.assistant, bar)
    if args.retire:
        print(asyncio.run(svc.retire_sources(args.retire)), "chunks retired")

    while True:
        for i, item in enumerate(MENU, 1):
            if item.enabled:
                print(f"{i}. {item.text}")
        choice = input("> ").strip()
        if not choice.isdigit() or not 1 <= int(choice) <= len(MENU):
            continue
        item = MENU[int(choice) - 1]
        if item.id == "quit":
            break
        if item.id == "ask":
            print(svc.ask(input("question: "))["answer"])
        elif item.id == "redact":
            n = svc.redact()
            relabel(MENU, "redact", f"Redact personal data (last run: {n} messages)")
        elif item.id == "summarize":
            print(svc.summarize_recent())
        elif item.id == "spans":
            for row in span_table(svc.buffer):
                print(row)
            for role, text in transcript(svc.assistant):
                print(f"{role:>9}: {text}")
        print(bar.render())
    svc.maintenance()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
