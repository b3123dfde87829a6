"""Terminal UI for the context team."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List
from uuid import uuid4

import typer
from rich.console import Console
from rich.table import Table

from agno_team.service import ContextService
from agno_team.settings import get_settings

app = typer.Typer(help="Ask the context team questions and inspect its working context.")
console = Console()


@dataclass
class MenuItem:
    id: str
    text: str
    hotkey: str = ""


MENU: List[MenuItem] = [
    MenuItem(id="ask", text="Ask the team a question", hotkey="a"),
    MenuItem(id="spans", text="Show the working context spans", hotkey="s"),
    MenuItem(id="log", text="Show the decision log", hotkey="l"),
]


def fit_menu(items: List[MenuItem], width: int) -> List[MenuItem]:
    for item in items:
        if len(item.text) > width:
            item.text = item.text[: width - 1] + "…"
    return items


def span_rows(service: ContextService, width: int = 60) -> List[Dict[str, str]]:
    rows = []
    for span in service.buffer.live():
        row = {"id": span.span_id, "kind": span.kind, "text": span.content}
        if len(row["text"]) > width:
            row["text"] = row["text"][: width - 1] + "…"
        rows.append(row)
    return rows


@app.command()
def ask(question: str, session_id: str = typer.Option(None, help="Session to continue")) -> None:
    service = ContextService(get_settings())
    event = service.ask(question, session_id=session_id or uuid4().hex)
    console.print(event.text)
    for quote in event.citations:
        console.print(f"  > {quote}", style="dim")


@app.command()
def spans(width: int = 60) -> None:
    service = ContextService(get_settings())
    table = Table("id", "kind", "text")
    for row in span_rows(service, width):
        table.add_row(row["id"], row["kind"], row["text"])
    console.print(table)


@app.command()
def menu(width: int = 30) -> None:
    for item in fit_menu(MENU, width):
        console.print(f"[{item.hotkey}] {item.text}")


if __name__ == "__main__":
    app()
