"""Nightly retention job for the document store."""

from __future__ import annotations

import datetime as dt

from haystack.document_stores.in_memory import InMemoryDocumentStore


def purge_killed(store: InMemoryDocumentStore, days: int = 14) -> int:
    cutoff = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=days)).isoformat()
    old = store.filter_documents(
        filters={"operator": "AND", "conditions": [
            {"field": "meta.killed", "operator": "==", "value": True},
            {"field": "meta.killed_at", "operator": "<", "value": cutoff},
        ]}
    )
    store.delete_documents([d.id for d in old])
    return len(old)


def purge_killed_uncited(store: InMemoryDocumentStore, cited: set, days: int = 14) -> int:
    cutoff = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=days)).isoformat()
    old = store.filter_documents(filters={"field": "meta.killed_at", "operator": "<", "value": cutoff})
    doomed = [d.id for d in old if d.id not in cited]
    store.delete_documents(doomed)
    return len(doomed)
