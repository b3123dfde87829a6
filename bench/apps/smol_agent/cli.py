"""Command-line interface."""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from .models import ContextSpan
from .service import ContextService
from .settings import apply_profile_override, load_settings


@dataclass
class Label:
    id: str
    text: str
    style: str = "bold"


class StatusBar:
    def __init__(self) -> None:
        self.labels: dict[str, Label] = {
            "model": Label("model", ""),
            "steps": Label("steps", "0"),
            "spans": Label("spans", "0"),
        }

    def set(self, label_id: str, text: str) -> None:
        self.labels[label_id].text = text

    def render(self, console: Console) -> None:
        console.print("  ".join(f"[{l.style}]{l.id}[/]: {l.text}" for l in self.labels.values()))


def render_spans(console: Console, spans: list[ContextSpan], width: int = 80) -> None:
    table = Table(title="Context buffer")
    table.add_column("id")
    table.add_column("v", justify="right")
    table.add_column("by")
    table.add_column("content")
    for span in spans:
        preview = span.content if len(span.content) <= width else span.content[: width - 1] + "\u2026"
        table.add_row(span.span_id, str(span.version), span.produced_by, preview)
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="smol-agent")
    sub = parser.add_subparsers(dest="cmd", required=True)
    ask = sub.add_parser("ask")
    ask.add_argument("task")
    ask.add_argument("--profile", default="concise")
    ask.add_argument("--profile-text")
    redact = sub.add_parser("redact")
    redact.add_argument("span_id")
    redact.add_argument("pattern")
    sub.add_parser("spans")
    args = parser.parse_args(argv)

    console = Console()
    settings = load_settings()
    service = ContextService(settings)
    bar = StatusBar()
    bar.set("model", settings.model_id)

    if args.cmd == "ask":
        if args.profile_text:
            apply_profile_override(settings, args.profile, args.profile_text)
        profile = settings.profiles.get(args.profile)
        task = f"{profile.text}\n\n{args.task}" if profile else args.task
        answer = service.ask(task)
        bar.set("steps", str(len(service.agent.memory.steps)))
        bar.set("spans", str(len(service.buffer.live())))
        console.print(answer)
    elif args.cmd == "redact":
        console.print(asyncio.run(service.apply_redaction(args.span_id, args.pattern)))
    elif args.cmd == "spans":
        render_spans(console, service.buffer.live())
    bar.render(console)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
