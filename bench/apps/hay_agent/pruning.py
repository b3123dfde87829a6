from __future__ import annotations

from .decision_log import DecisionLog
from .memory import ChatMemory


def prune_oldest(memory: ChatMemory, log: DecisionLog, keep: int) -> None:
    msgs = memory.messages()
    victims = [m.meta["span_id"] for m in msgs[:-keep]] if len(msgs) > keep else []
    log.append("prune", victims, f"over budget {len(msgs)}>{keep}", [m.text or "" for m in msgs[:-keep]])
    for sid in victims:
        memory.remove(sid)


def prune_flagged(memory: ChatMemory, log: DecisionLog) -> None:
    flagged = [m for m in memory.messages() if m.meta.get("flag")]
    for m in flagged:
        memory.remove(m.meta["span_id"])
    log.append("prune-flagged", [m.meta["span_id"] for m in flagged], "flagged")
