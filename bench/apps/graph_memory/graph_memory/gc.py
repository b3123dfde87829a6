"""Housekeeping for tombstoned memories."""

from datetime import datetime, timedelta, timezone

from langgraph.store.base import BaseStore

from graph_memory.decision_log import DecisionLog
from graph_memory.settings import memory_ns, scoped_ns


async def sweep_tombstones(store: BaseStore, user_id: str, *, older_than_days: int = 14) -> list[str]:
    ns = memory_ns(user_id)
    cutoff = datetime.now(timezone.utc) - timedelta(days=older_than_days)
    tombstoned = await store.asearch(ns, filter={"tombstoned": True}, limit=1000)
    expired = [it.key for it in tombstoned if it.updated_at < cutoff]
    for key in expired:
        await store.adelete(ns, key)
    return expired


async def _referenced_keys(store: BaseStore, user_id: str) -> set[str]:
    refs: set[str] = set()
    for it in await store.asearch(memory_ns(user_id), limit=1000):
        if not it.value.get("tombstoned"):
            refs.update(it.value.get("source_ids", []))
    for it in await store.asearch(scoped_ns("digests", user_id), limit=200):
        refs.update(it.value.get("source_ids", []))
        refs.update(it.value.get("derived_from", []))
    return refs


async def collect_unreferenced(store: BaseStore, user_id: str, log: DecisionLog) -> list[str]:
    ns = memory_ns(user_id)
    tombstoned = await store.asearch(ns, filter={"tombstoned": True}, limit=1000)
    holders = await _referenced_keys(store, user_id)
    doomed = [it.key for it in tombstoned if it.key not in holders]
    if not doomed:
        return []
    await log.record("gc", "tombstoned memories with no remaining references", doomed)
    for key in doomed:
        await store.adelete(ns, key)
    return doomed
