"""Citations from the final answer back into context spans."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypedDict


class Citation(TypedDict):
    span_id: str
    start: int
    end: int
    n: int


def cite(span: dict, quote: str, n: int) -> Citation | None:
    i = span["text"].find(quote)
    if i < 0:
        return None
    return Citation(span_id=span["id"], start=i, end=i + len(quote), n=n)


def quoted(store, cit: Citation) -> str:
    span = store.get(cit["span_id"])
    if span is None:
        return ""
    return span["text"][cit["start"]:cit["end"]]


def footnotes(store, cits: list[Citation]) -> str:
    lines = []
    for c in sorted(cits, key=lambda c: c["n"]):
        lines.append(f"[{c['n']}] \u201c{quoted(store, c)}\u201d ({c['span_id']})")
    return "\n".join(lines)


def save_citations(path: str | Path, cits: list[Citation]) -> None:
    Path(path).write_text(json.dumps(cits, indent=1), "utf-8")


def load_citations(path: str | Path) -> list[Citation]:
    p = Path(path)
    return json.loads(p.read_text("utf-8")) if p.exists() else []
