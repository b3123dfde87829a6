"""Terminal front end for the casebook assistant."""

from __future__ import annotations

import argparse
import asyncio
import json
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from strands.types.content import Message

from .buffer import text_of, version_of
from .service import CaseService


@dataclass
class MenuItem:
    id: str
    text: str
    hotkey: str = ""


MENU = [
    MenuItem("ask", "Ask a question"),
    MenuItem("notes", "Show pinned notes"),
    MenuItem("context", "Show working context"),
    MenuItem("quit", "Quit"),
]


def relabel(menu: list[MenuItem], item_id: str, text: str) -> None:
    for item in menu:
        if item.id == item_id:
            item.text = text
            item.hotkey = text[:1].lower()


def preview(message: Message, width: int = 72) -> Mapping[str, object]:
    text = text_of(message)
    return MappingProxyType(
        {
            "id": message.get("tracking_id", "-")[:8],
            "role": message["role"],
            "v": version_of(message),
            "text": text[:width] + ("…" if len(text) > width else ""),
        }
    )


def render_context(service: CaseService, case_id: str) -> None:
    rt = service.open_case(case_id)
    for message in rt.agent.messages:
        row = preview(message)
        print(f"{row['id']:>8} {row['role']:<9} v{row['v']:<3} {row['text']}")


async def repl(service: CaseService, case_id: str) -> None:
    rt = service.open_case(case_id)
    relabel(MENU, "ask", f"Ask about case {case_id}")
    while True:
        for item in MENU:
            print(f"  [{item.hotkey or item.id[0]}] {item.text}")
        choice = input("> ").strip().lower()
        if choice in ("q", "quit"):
            return
        if choice in ("n", "notes"):
            for note in rt.store.notes.values():
                print(f"{note.span_id} v{note.version}{'' if note.live else ' (retired)'}: {note.text[:60]}")
        elif choice in ("c", "context"):
            render_context(service, case_id)
        else:
            question = input("question: ")
            payload = await service.ask(case_id, question)
            print(payload["text"])
            for q in payload["quotes"]:
                print(f"   ↳ {q['quote']!r}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="casebook")
    parser.add_argument("case_id")
    parser.add_argument("--ask")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    service = CaseService()
    if args.ask:
        payload = asyncio.run(service.ask(args.case_id, args.ask))
        print(json.dumps(payload, indent=2, default=str) if args.json else payload["text"])
    else:
        asyncio.run(repl(service, args.case_id))


if __name__ == "__main__":
    main()
