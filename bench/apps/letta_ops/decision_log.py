from __future__ import annotations

import json
import threading
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from letta_client import Letta

DECISION_BLOCK = "ops_decisions"


@dataclass(frozen=True)
class Decision:
    action: str
    target_ids: tuple[str, ...]
    rationale: str
    evidence: str = ""
    at: str = field(default_factory=lambda: datetime.now(timezone.utc).isoformat())


class DecisionLog:
    def __init__(self, path: Path | None = None) -> None:
        self._entries: list[Decision] = []
        self._path = path
        self._lock = threading.Lock()

    def record(self, action: str, target_ids, rationale: str, evidence: str = "") -> Decision:
        d = Decision(action=action, target_ids=tuple(target_ids), rationale=rationale, evidence=evidence[:2000])
        with self._lock:
            self._entries.append(d)
            if self._path is not None:
                with self._path.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(asdict(d)) + "\n")
        return d

    def __iter__(self) -> Iterator[Decision]:
        return iter(tuple(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def for_target(self, target_id: str) -> list[Decision]:
        return [d for d in self._entries if target_id in d.target_ids]

    def compact(self, keep: int = 500) -> int:
        with self._lock:
            overflow = len(self._entries) - keep
            if overflow <= 0:
                return 0
            del self._entries[:overflow]
            if self._path is not None:
                self._path.write_text("".join(json.dumps(asdict(d)) + "\n" for d in self._entries), encoding="utf-8")
            return overflow


def append_decision_to_block(client: Letta, agent_id: str, d: Decision) -> None:
    blk = client.agents.blocks.retrieve(DECISION_BLOCK, agent_id=agent_id)
    line = f"{d.at} {d.action} {','.join(d.target_ids)} :: {d.rationale}"
    client.agents.blocks.update(DECISION_BLOCK, agent_id=agent_id, value=(blk.value + "\n" + line).lstrip("\n"))


def fit_decision_block(client: Letta, agent_id: str) -> int:
    blk = client.agents.blocks.retrieve(DECISION_BLOCK, agent_id=agent_id)
    lines = blk.value.splitlines()
    budget = int((blk.limit or 5000) * 0.9)
    dropped = 0
    while lines and len("\n".join(lines)) > budget:
        lines.pop(0)
        dropped += 1
    if dropped:
        client.agents.blocks.update(DECISION_BLOCK, agent_id=agent_id, value="\n".join(lines))
    return dropped
