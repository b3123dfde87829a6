"""Chat transcript kept as OpenAI-style message dicts with our own ids added.

    {"id": "m-0007", "role": "tool", "tool_call_id": "call_Yx2", "content": "..."}

The transcript is saved next to the context store; citations and the UI refer to
messages by ``id``.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

Message = dict[str, Any]

_seq = itertools.count(1)


def new_message(role: str, content: str, **extra: Any) -> Message:
    msg = {"id": f"m-{next(_seq):04d}", "role": role, "content": content}
    msg.update(extra)
    return msg


def from_span(span: dict) -> Message:
    return {"id": span["id"], "role": span["role"], "content": span["text"]}


def load_transcript(path: str | Path) -> list[Message]:
    p = Path(path)
    if not p.exists():
        return []
    return json.loads(p.read_text("utf-8"))


def save_transcript(path: str | Path, history: list[Message]) -> None:
    Path(path).write_text(json.dumps(history, ensure_ascii=False, indent=1), "utf-8")


def clip_tool_messages(history: list[Message], limit: int = 4000) -> int:
    clipped = 0
    for msg in history:
        if msg.get("role") != "tool":
            continue
        body = msg.get("content") or ""
        if len(body) > limit:
            msg["content"] = f"{body[:limit]}\n[... {len(body) - limit} chars clipped]"
            clipped += 1
    return clipped


def to_payload(history: list[Message], limit: int = 4000) -> list[dict]:
    out = []
    for msg in history:
        m = {"role": msg["role"], "content": msg.get("content") or ""}
        if msg.get("tool_call_id"):
            m["tool_call_id"] = msg["tool_call_id"]
        if msg.get("tool_calls"):
            m["tool_calls"] = msg["tool_calls"]
        if len(m["content"]) > limit:
            m["content"] = m["content"][:limit]
        out.append(m)
    return out


def drop_oldest_turns(history: list[Message], log, keep: int = 40) -> int:
    start = 1 if history and history[0].get("role") == "system" else 0
    excess = len(history) - start - keep
    if excess <= 0:
        return 0
    head = history[start:start + excess]
    log.append(
        "truncate_history",
        reason=f"history longer than {keep} turns",
        messages=[
            {"id": m["id"], "role": m["role"], "excerpt": (m.get("content") or "")[:160]}
            for m in head
        ],
    )
    del history[start:start + excess]
    return excess
