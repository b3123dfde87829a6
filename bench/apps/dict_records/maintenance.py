"""Offline maintenance for session directories: ``ctx-maint stats|purge|trim-log``."""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

from .decision_log import DecisionLog

CONTEXT_FILE = "context.json"
LOG_FILE = "decisions.jsonl"


def stats(path: Path) -> dict:
    data = json.loads(path.read_text("utf-8"))
    spans = data.get("spans", [])
    by_kind = collections.Counter(s["kind"] for s in spans if not s.get("dead"))
    return {
        "spans": len(spans),
        "live": sum(1 for s in spans if not s.get("dead")),
        "tombstones": sum(1 for s in spans if s.get("dead")),
        "chars": sum(len(s["text"]) for s in spans if not s.get("dead")),
        "by_kind": dict(by_kind),
        "held": len(data.get("holds", {})),
    }


def purge_tombstones(path: Path, days: float = 7.0) -> int:
    data = json.loads(path.read_text("utf-8"))
    cutoff = time.time() - days * 86400
    before = len(data["spans"])
    data["spans"] = [
        s for s in data["spans"] if not (s.get("dead") and s.get("dead_at", 0) < cutoff)
    ]
    path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    return before - len(data["spans"])


def _sessions(root: Path):
    for ctx in sorted(root.glob(f"*/{CONTEXT_FILE}")):
        yield ctx.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="ctx-maint")
    ap.add_argument("root", type=Path, help="directory holding one folder per session")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("stats")
    p_purge = sub.add_parser("purge")
    p_purge.add_argument("--days", type=float, default=7.0)
    p_trim = sub.add_parser("trim-log")
    p_trim.add_argument("--keep", type=int, default=20000)
    args = ap.parse_args(argv)

    for sess in _sessions(args.root):
        if args.cmd == "stats":
            print(sess.name, json.dumps(stats(sess / CONTEXT_FILE)))
        elif args.cmd == "purge":
            n = purge_tombstones(sess / CONTEXT_FILE, args.days)
            print(f"{sess.name}: purged {n} tombstones")
        elif args.cmd == "trim-log":
            n = DecisionLog(sess / LOG_FILE).trim(args.keep)
            print(f"{sess.name}: trimmed {n} log lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
