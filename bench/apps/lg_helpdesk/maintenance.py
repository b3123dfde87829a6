"""Nightly housekeeping jobs and operator actions run from the admin CLI."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone

from langchain_core.messages import HumanMessage, RemoveMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore

from .decision_log import AUDIT_NAMESPACE, DecisionLog

_RETRACT = re.compile(r"\b(ignore|disregard|forget) (what i said|my last|that)\b", re.I)
PAGE = 200


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _iter_items(store: BaseStore, prefix: tuple[str, ...], **kw) -> Iterable:
    offset = 0
    while True:
        page = store.search(prefix, limit=PAGE, offset=offset, **kw)
        if not page:
            return
        yield from page
        offset += len(page)


def apply_retractions(graph: CompiledStateGraph, config: RunnableConfig, log: DecisionLog) -> int:
    """Honour 'please ignore what I said' by dropping the retracted customer turn."""
    snapshot = graph.get_state(config)
    messages = snapshot.values.get("messages", [])
    removals: list[RemoveMessage] = []
    notes: list[tuple[str, str, str]] = []
    previous_human = None
    for m in messages:
        if not isinstance(m, HumanMessage):
            continue
        if previous_human is not None and _RETRACT.search(m.text):
            removals += [RemoveMessage(id=previous_human.id), RemoveMessage(id=m.id)]
            notes.append((previous_human.id, m.id, m.text))
            previous_human = None
            continue
        previous_human = m
    if not removals:
        return 0
    graph.update_state(config, {"messages": removals})
    for retracted_id, request_id, request_text in notes:
        log.record(
            "retraction",
            reason=request_text,
            subject_ids=[retracted_id, request_id],
            thread_id=config["configurable"]["thread_id"],
        )
    return len(notes)


def purge_tombstones(store: BaseStore, *, ttl_days: int = 14) -> int:
    cutoff = _now() - timedelta(days=ttl_days)
    stale = [it for it in _iter_items(store, ("tombstones",)) if it.updated_at < cutoff]
    for it in stale:
        store.delete(it.namespace, it.key)
    return len(stale)


def live_holders(store: BaseStore, thread_ids: Iterable[str], graph: CompiledStateGraph) -> set[str]:
    """Message ids still referenced by a live thread (citations, redaction back-links)."""
    held: set[str] = set()
    for tid in thread_ids:
        values = graph.get_state({"configurable": {"thread_id": tid}}).values
        for m in values.get("messages", []):
            if src := m.additional_kwargs.get("redacted_from"):
                held.add(src)
        for entry in values.get("memory_refs", []):
            held.add(entry["memory_id"])
    return held


def collect_tombstones(
    store: BaseStore,
    graph: CompiledStateGraph,
    active_threads: Iterable[str],
    log: DecisionLog,
    *,
    ttl_days: int = 14,
) -> int:
    held = live_holders(store, active_threads, graph)
    cutoff = _now() - timedelta(days=ttl_days)
    victims = [
        it
        for it in _iter_items(store, ("tombstones",))
        if it.updated_at < cutoff and it.key not in held
    ]
    if not victims:
        return 0
    log.record(
        "gc_tombstones",
        reason=f"older than {ttl_days}d and unreferenced by {len(held)} live holders",
        subject_ids=[it.key for it in victims],
    )
    for it in victims:
        store.delete(it.namespace, it.key)
    return len(victims)


def purge_finished_jobs(store: BaseStore, *, retention_days: int = 7) -> int:
    cutoff = _now() - timedelta(days=retention_days)
    n = 0
    for status in ("succeeded", "failed", "cancelled"):
        for job in list(_iter_items(store, ("jobs",), filter={"status": status})):
            if job.updated_at < cutoff:
                store.delete(job.namespace, job.key)
                n += 1
    return n


def enforce_audit_retention(store: BaseStore, *, retention_days: int = 365) -> int:
    cutoff = (_now() - timedelta(days=retention_days)).isoformat()
    expired = [it for it in _iter_items(store, AUDIT_NAMESPACE) if it.value.get("at", "") < cutoff]
    for it in expired:
        store.delete(AUDIT_NAMESPACE, it.key)
    return len(expired)
