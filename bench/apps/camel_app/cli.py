"""Command-line front end with a tiny status line."""
from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
from dataclasses import dataclass
from typing import Dict, List

from .agent import build_app
from .housekeeping import collect_tombstones
from .models import record_id, record_version
from .service import SpanService
from .settings import Settings


@dataclass
class Label:
    id: str
    text: str
    width: int = 40


class StatusBar:
    def __init__(self) -> None:
        self.labels: Dict[str, Label] = {
            "spans": Label(id="spans", text="spans: 0"),
            "model": Label(id="model", text=""),
            "last": Label(id="last", text="", width=60),
        }

    def set(self, label_id: str, text: str) -> None:
        label = self.labels[label_id]
        label.text = text[: label.width]

    def render(self) -> str:
        cols = shutil.get_terminal_size((100, 20)).columns
        return " | ".join(lbl.text for lbl in self.labels.values())[:cols]


def preview_rows(service: SpanService, width: int = 72) -> List[str]:
    rows = []
    for record in service.app.buffer.live():
        text = record.message.content.replace("\n", " ")
        head = text[:width] + ("\u2026" if len(text) > width else "")
        rows.append(f"{record_id(record)[:8]} v{record_version(record)} {head}")
    return rows


async def repl(service: SpanService, bar: StatusBar) -> None:
    bar.set("model", str(service.app.settings.model_type.value))
    while True:
        line = await asyncio.to_thread(input, "> ")
        if line in {":q", ":quit"}:
            return
        if line == ":ls":
            print("\n".join(preview_rows(service)))
            continue
        if line == ":compact":
            result = await service.compact({})
            collect_tombstones(service.app.buffer, service.app.settings.tombstone_ttl_s)
            bar.set("last", f"dropped {len(result['dropped'])}, evicted {len(result['evicted'])}")
        elif line.startswith(":add "):
            await service.add({"text": line[5:]})
        else:
            result = await service.ask({"question": line})
            print(result["answer"])
        bar.set("spans", f"spans: {len(service.app.buffer.live())}")
        print(bar.render(), file=sys.stderr)


def main(argv: List[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="notes")
    parser.add_argument("--token-limit", type=int)
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    if args.token_limit:
        settings.apply_overrides({"token_limit": str(args.token_limit)})
    service = SpanService(build_app(settings))
    asyncio.run(repl(service, StatusBar()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
