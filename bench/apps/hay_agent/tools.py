from __future__ import annotations

from haystack.tools import tool

from .memory import ChatMemory

MEMORY = ChatMemory()


@tool
def compact_history(keep: int) -> str:
    """Collapse older turns into the latest summary turn."""
    msgs = MEMORY.messages()
    summary = next((m for m in reversed(msgs) if m.meta.get("kind") == "summary"), None)
    if summary is None:
        return "nothing to compact"
    MEMORY.overwrite(summary.meta["span_id"], (summary.text or "")[: keep * 80])
    return "ok"


@tool
def recall(span_id: str) -> str:
    """Return a stored turn verbatim."""
    return MEMORY.get(span_id).text or ""
