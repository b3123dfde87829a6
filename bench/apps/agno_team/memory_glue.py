"""Glue around Agno's MemoryManager and UserMemory."""
from __future__ import annotations

from typing import Callable, List, Optional

from agno.memory import MemoryManager, UserMemory

from agno_team.decision_log import DecisionLog
from agno_team.models import content_digest
from agno_team.operators import redact_text


def redact_memories(manager: MemoryManager, user_id: str) -> int:
    changed = 0
    for mem in manager.get_user_memories(user_id=user_id) or []:
        cleaned = redact_text(mem.memory)
        if cleaned == mem.memory or mem.memory_id is None:
            continue
        updated = UserMemory(
            memory=cleaned,
            memory_id=mem.memory_id,
            topics=mem.topics,
            user_id=user_id,
            input=mem.input,
            agent_id=mem.agent_id,
            team_id=mem.team_id,
        )
        manager.replace_user_memory(memory_id=mem.memory_id, memory=updated, user_id=user_id)
        changed += 1
    return changed


def supersede_memory(
    manager: MemoryManager, log: DecisionLog, old: UserMemory, new_text: str, user_id: str
) -> Optional[str]:
    replacement = UserMemory(
        memory=new_text,
        topics=list(old.topics or []) + [f"supersedes:{old.memory_id}"],
        input=old.input,
        agent_id=old.agent_id,
        team_id=old.team_id,
    )
    new_id = manager.add_user_memory(memory=replacement, user_id=user_id)
    log.record(
        op="supersede-memory",
        target_ids=[old.memory_id or "", new_id or ""],
        rationale="memory corrected by user",
        evidence=[content_digest(old.memory)],
    )
    return new_id


def forget_stale_memories(
    manager: MemoryManager, log: DecisionLog, user_id: str, is_stale: Callable[[UserMemory], bool]
) -> List[str]:
    stale = [m for m in manager.get_user_memories(user_id=user_id) or [] if is_stale(m)]
    forgotten: List[str] = []
    for mem in stale:
        if mem.memory_id:
            manager.delete_user_memory(memory_id=mem.memory_id, user_id=user_id)
            forgotten.append(mem.memory_id)
    log.record(op="forget", target_ids=forgotten, rationale=f"{len(forgotten)} memories marked stale")
    return forgotten
