"""Command-line front end for briefdesk."""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import dataclass

from google.adk.sessions import Session

from .housekeeping import collect_unheld
from .models import event_text
from .service import BriefingService
from .settings import Settings


@dataclass
class Label:
    id: str
    text: str
    style: str = "dim"


class StatusBar:
    def __init__(self) -> None:
        self.labels = {
            "session": Label(id="session", text="no session"),
            "spans": Label(id="spans", text="0 spans"),
            "mode": Label(id="mode", text="chat", style="bold"),
        }

    def set(self, label_id: str, text: str) -> None:
        label = self.labels[label_id]
        label.text = text

    def render(self) -> str:
        return " | ".join(label.text for label in self.labels.values())


def render_transcript(session: Session, width: int = 100) -> str:
    lines = []
    for event in session.events:
        text = event_text(event)
        if not text:
            continue
        shown = text if len(text) <= width else text[: width - 1] + "\u2026"
        lines.append(f"[{event.id[:8]}] {event.author:>12}: {shown}")
    return "\n".join(lines)


async def _chat(service: BriefingService, user_id: str) -> None:
    session = await service.start_session(user_id)
    bar = StatusBar()
    bar.set("session", session.id[:8])
    while True:
        try:
            line = input("> ").strip()
        except EOFError:
            break
        if not line:
            continue
        if line == "/transcript":
            fresh = await service._session(user_id, session.id)
            print(render_transcript(fresh))
            continue
        if line == "/maintain":
            print(service.maintain_context())
            continue
        if line == "/gc":
            print(collect_unheld(service.buffer, service.holders, service.settings.tombstone_ttl_seconds))
            continue
        answer = await service.ask(user_id, session.id, line)
        await service.run_jobs()
        bar.set("spans", f"{len(service.buffer)} spans")
        print(answer)
        print(bar.render(), file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="briefdesk")
    parser.add_argument("--user", default="local")
    args = parser.parse_args(argv)
    service = BriefingService(Settings.from_env())
    asyncio.run(_chat(service, args.user))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
