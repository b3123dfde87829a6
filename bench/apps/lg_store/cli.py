"""Terminal front-end."""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import dataclass

from .service import ContextService
from .settings import PROFILES, update_profile


@dataclass
class MenuItem:
    id: str
    text: str
    enabled: bool = True


MENU = [
    MenuItem("chat", "Chat with the agent"),
    MenuItem("compact", "Compact context"),
    MenuItem("profile", "Switch profile"),
    MenuItem("quit", "Quit"),
]


def relabel(items: list[MenuItem], busy: set[str]) -> None:
    for item in items:
        if item.id in busy and item.enabled:
            item.text = f"{item.text} (working...)"
            item.enabled = False


def narrow(items: list[MenuItem], width: int) -> list[MenuItem]:
    return [MenuItem(id=i.id, text=i.text[: width - 1] + "\u2026" if len(i.text) > width else i.text, enabled=i.enabled) for i in items]


def render(items: list[MenuItem]) -> str:
    return "\n".join(f"  [{n}] {i.text}" for n, i in enumerate(items, 1) if i.enabled)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="lg-store")
    parser.add_argument("--thread", default="default")
    parser.add_argument("--user", default="local")
    parser.add_argument("--width", type=int, default=40)
    args = parser.parse_args(argv)
    service = ContextService()
    while True:
        print(render(narrow(MENU, args.width)))
        choice = input("> ").strip()
        if choice in {"4", "quit"}:
            return
        if choice in {"1", "chat"}:
            text = input("you: ")
            reply = asyncio.run(service.chat(args.thread, args.user, text))
            print(f"agent: {reply['text']}")
        elif choice in {"2", "compact"}:
            relabel(MENU, {"compact"})
            print(service.compact(args.thread))
        elif choice in {"3", "profile"}:
            name = input(f"profile {sorted(PROFILES)}: ").strip()
            if name in PROFILES:
                update_profile(name, str(PROFILES[name]["text"]).strip())


if __name__ == "__main__":
    main()
