"""Command line for poking at a saved window (ops + local debugging)."""
import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from .audit import AuditTrail
from .models import Segment
from .normalize import normalize_window
from .prune import Pruner, collect
from .registry import ArtifactRegistry
from .settings import EngineSettings
from .window import ContextWindow


@dataclass
class StatusPanel:
    """Single-line status widget for the terminal UI."""

    id: str
    text: str = ""
    width: int = 80

    def update(self, text: str) -> None:
        self.text = text[: self.width]

    def render(self) -> str:
        return f"[{self.id}] {self.text}".ljust(self.width)


class _NullEmbedder:
    def embed(self, text: str) -> list[float]:
        return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ctx-engine")
    parser.add_argument("window", type=Path, help="JSONL file of segments")
    parser.add_argument("--config", type=Path)
    parser.add_argument("cmd", choices=["stats", "normalize", "evict", "gc"])
    parser.add_argument("seg_ids", nargs="*")
    parser.add_argument("--reason", default="manual eviction from cli")
    args = parser.parse_args(argv)

    settings = EngineSettings.load(args.config)
    trail = AuditTrail(settings.audit_path)
    window = ContextWindow(budget_tokens=settings.budget_tokens)
    for line in args.window.read_text(encoding="utf-8").splitlines():
        if line.strip():
            window.add(Segment.model_validate_json(line))
    panel = StatusPanel(id="status")

    if args.cmd == "stats":
        panel.update(f"{len(window)} segments, {window.used_tokens()}/{window.budget_tokens} tokens")
        print(panel.render())
        return 0
    if args.cmd == "normalize":
        panel.update(f"normalized {normalize_window(window)} segments")
    elif args.cmd == "evict":
        gone = Pruner(window, trail).evict(args.seg_ids, args.reason)
        panel.update(f"evicted {', '.join(gone) or 'nothing'}")
    elif args.cmd == "gc":
        freed = collect(window, ArtifactRegistry(_NullEmbedder()), trail)
        panel.update(f"freed {len(freed)} tombstones")
    print(panel.render(), file=sys.stderr)
    keep = [*window, *window.tombstoned()]
    args.window.write_text("\n".join(s.model_dump_json() for s in keep) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
