"""Terminal UI for the assistant."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from .agent import ask, build_assistant
from .housekeeping import JobQueue, gc_unheld
from .pruning import compact
from .settings import get_settings

console = Console()


@dataclass
class MenuItem:
    id: str
    text: str
    hotkey: str


MENU = [
    MenuItem("ask", "Ask a question", "a"),
    MenuItem("note", "Add a note", "n"),
    MenuItem("compact", "Compact context", "c"),
    MenuItem("quit", "Quit", "q"),
]


def relabel(items: list[MenuItem], labels: dict[str, str]) -> list[MenuItem]:
    for item in items:
        if item.id in labels:
            item.text = labels[item.id]
    return items


def render_menu(items: list[MenuItem]) -> Table:
    table = Table(title="atomic-app")
    table.add_column("key")
    table.add_column("action")
    for item in items:
        table.add_row(item.hotkey, item.text)
    return table


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="atomic-app")
    parser.add_argument("--lang", default="en")
    args = parser.parse_args(argv)
    settings = get_settings()
    assistant = build_assistant(settings)
    jobs = JobQueue()
    if args.lang == "de":
        relabel(MENU, {"ask": "Frage stellen", "note": "Notiz hinzufügen", "quit": "Beenden"})
    while True:
        console.print(render_menu(MENU))
        key = console.input("> ").strip().lower()
        if key == "q":
            break
        if key == "a":
            answer = ask(assistant, console.input("question: "))
            console.print(answer.answer)
            console.print(f"cited: {', '.join(answer.cited_span_ids)}")
        elif key == "n":
            body = assistant.history.add_span(console.input("note: "))
            console.print(f"added {body.span_id}")
        elif key == "c":
            dropped = compact(assistant.history, assistant.decisions, focus="current task", drop=2)
            console.print(f"dropped turns: {dropped}")
        jobs.schedule("gc", lambda: gc_unheld(assistant.history, assistant.decisions, settings.tombstone_ttl_seconds))
        jobs.run_due()


if __name__ == "__main__":
    main()
