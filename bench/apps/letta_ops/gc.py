from __future__ import annotations

from datetime import datetime, timedelta, timezone

from letta_client import Letta

from .citations import HolderRegistry
from .config import Settings


def _tombstones(client: Letta, agent_id: str):
    return [p for p in client.agents.passages.list(agent_id, limit=1000) if "tombstone" in (p.tags or [])]


def sweep_tombstones(client: Letta, settings: Settings) -> int:
    cutoff = datetime.now(timezone.utc) - timedelta(days=settings.tombstone_retention_days)
    swept = 0
    for p in _tombstones(client, settings.agent_id):
        stamp = p.updated_at or p.created_at
        if stamp and stamp < cutoff:
            client.archives.passages.delete(p.id, archive_id=p.archive_id or settings.archive_id)
            swept += 1
    return swept


def sweep_tombstones_unheld(client: Letta, settings: Settings, holders: HolderRegistry) -> int:
    cutoff = datetime.now(timezone.utc) - timedelta(days=settings.tombstone_retention_days)
    swept = 0
    for p in _tombstones(client, settings.agent_id):
        stamp = p.updated_at or p.created_at
        if not stamp or stamp >= cutoff or holders.is_held(p.id):
            continue
        client.archives.passages.delete(p.id, archive_id=p.archive_id or settings.archive_id)
        swept += 1
    return swept

