"""Read-only views of the context for the UI and the API."""
from __future__ import annotations

from types import MappingProxyType
from typing import Dict, List, Mapping, Tuple

from langroid.agent.chat_agent import ChatAgent

from .decision_log import DecisionLog
from .store import SpanBuffer


def transcript(agent: ChatAgent, width: int = 100) -> List[Tuple[str, str]]:
    rows = []
    for msg in agent.message_history:
        text = (msg.content or "").replace("\n", " ")
        if len(text) > width:
            text = text[: width - 1] + "\u2026"
        rows.append((str(msg.role), text))
    return rows


def span_table(buffer: SpanBuffer) -> List[Dict[str, object]]:
    return [
        {
            "id": s.span_id,
            "v": s.version,
            "hash": s.content_hash[:8],
            "by": s.produced_by,
            "text": s.content[:80],
            "dead": s.is_tombstoned,
        }
        for s in buffer
    ]


def decision_index(log: DecisionLog) -> Mapping[str, Tuple[int, ...]]:
    idx: Dict[str, List[int]] = {}
    for entry in log.entries():
        for tid in entry.target_ids:
            idx.setdefault(tid, []).append(entry.seq)
    return MappingProxyType({k: tuple(v) for k, v in idx.items()})
