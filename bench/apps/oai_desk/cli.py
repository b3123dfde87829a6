"""Terminal front end for the desk assistant."""

from __future__ import annotations

import argparse
import asyncio

from .buffer import ContextBuffer
from .service import DeskService
from .settings import load_settings

MENU = [
    {"id": "ask", "text": "Ask a question"},
    {"id": "spans", "text": "Show context spans"},
    {"id": "quit", "text": "Quit"},
]


def render_menu(highlight: str | None = None) -> str:
    labels = [dict(entry) for entry in MENU]
    for label in labels:
        if label["id"] == highlight:
            label["text"] = f"> {label['text'].upper()}"
    return "\n".join(f"  [{label['id']}] {label['text']}" for label in labels)


def render_spans(buffer: ContextBuffer, width: int = 72) -> str:
    lines = []
    for span in buffer.live():
        preview = span.content[:width].replace("\n", " ")
        lines.append(f"{span.span_id:<24} v{span.version:<3} {preview}")
    return "\n".join(lines)


async def repl(service: DeskService, ticket_id: str) -> None:
    while True:
        print(render_menu())
        choice = input("choice> ").strip()
        if choice == "quit":
            return
        if choice == "spans":
            print(render_spans(service.context_for(ticket_id).buffer))
            continue
        question = input("you> ")
        reply = await service.ask(ticket_id, question)
        print(f"{reply['agent']}: {reply['answer']}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="oai-desk")
    parser.add_argument("ticket_id")
    args = parser.parse_args()
    asyncio.run(repl(DeskService(load_settings()), args.ticket_id))


if __name__ == "__main__":
    main()
