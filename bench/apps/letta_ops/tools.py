"""Custom tools registered on the on-call agent.

Letta executes tool source in its sandbox, so each tool is self-contained and the
server injects `agent_state` when the function declares it.
"""
from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

from letta_client import Letta

if TYPE_CHECKING:
    from letta.schemas.agent import AgentState


def condense_incident_timeline(agent_state: "AgentState", keep_last: int = 20) -> str:
    """
    Condense the incident timeline block so that it fits in core memory.

    Args:
        keep_last (int): How many of the most recent timeline entries to keep verbatim.

    Returns:
        str: The condensed timeline.
    """
    tl = agent_state.memory.get_block("incident_timeline")
    entries = [ln for ln in tl.value.splitlines() if ln.strip()]
    if len(entries) <= keep_last:
        return tl.value
    older, recent = entries[:-keep_last], entries[-keep_last:]
    services = sorted({ln.split("]", 1)[0].lstrip("[") for ln in older if ln.startswith("[")})
    rollup = f"({len(older)} earlier entries; services: {', '.join(services) or 'n/a'})"
    tl.value = "\n".join([rollup, *recent])
    return tl.value


def page_owner(agent_state: "AgentState", service: str) -> str:
    """
    Look up who is on call for a service.

    Args:
        service (str): Service name as it appears in the runbook block.

    Returns:
        str: The on-call handle, or 'unknown'.
    """
    runbook = agent_state.memory.get_block("runbook").value
    for line in runbook.splitlines():
        if line.lower().startswith(f"{service.lower()}:"):
            return line.split(":", 1)[1].strip()
    return "unknown"


TOOLS = [condense_incident_timeline, page_owner]


def register_tools(client: Letta, agent_id: str) -> list[str]:
    ids = []
    for fn in TOOLS:
        tool = client.tools.upsert(source_code=inspect.getsource(fn), tags=["letta-ops"])
        client.agents.tools.attach(tool.id, agent_id=agent_id)
        ids.append(tool.id)
    return ids
