"""Retention: pruning superseded articles and collecting tombstones."""

from __future__ import annotations

import logging
from collections import Counter
from typing import Iterable

from haystack.document_stores.in_memory import InMemoryDocumentStore

from .decision_log import DecisionLog
from .spans import HASH_KEY, TOMBSTONE_KEY, now

logger = logging.getLogger(__name__)

DAY = 86400.0


class HolderRegistry:
    """Tracks which live consumers (citations, summaries, open tickets) reference a span."""

    def __init__(self) -> None:
        self._refs: Counter[str] = Counter()

    def hold(self, span_ids: Iterable[str]) -> None:
        self._refs.update(span_ids)

    def release(self, span_ids: Iterable[str]) -> None:
        for sid in span_ids:
            if self._refs[sid] > 0:
                self._refs[sid] -= 1

    def is_held(self, span_id: str) -> bool:
        return self._refs[span_id] > 0


_SUPERSEDED = {"field": "meta.superseded_by", "operator": "!=", "value": None}


class RetentionManager:
    def __init__(self, store: InMemoryDocumentStore, log: DecisionLog, holders: HolderRegistry) -> None:
        self.store = store
        self.log = log
        self.holders = holders

    def prune_superseded(self) -> int:
        docs = self.store.filter_documents(_SUPERSEDED)
        if not docs:
            return 0
        self.store.delete_documents([d.id for d in docs])
        for doc in docs:
            self.log.record(
                "prune",
                [doc.id],
                f"superseded by {doc.meta['superseded_by']}",
                evidence={"hash": doc.meta.get(HASH_KEY)},
            )
        return len(docs)

    def prune_superseded_logged(self) -> int:
        docs = self.store.filter_documents(_SUPERSEDED)
        doomed = []
        for doc in docs:
            self.log.record(
                "prune",
                [doc.id, doc.meta["superseded_by"]],
                f"superseded by {doc.meta['superseded_by']}",
                evidence={"hash": doc.meta.get(HASH_KEY), "excerpt": (doc.content or "")[:200]},
            )
            doomed.append(doc.id)
        if doomed:
            self.store.delete_documents(doomed)
        return len(doomed)

    def collect_tombstones(self, ttl_days: float) -> int:
        cutoff = now() - ttl_days * DAY
        expired = self.store.filter_documents(
            {"field": "meta." + TOMBSTONE_KEY, "operator": "<", "value": cutoff}
        )
        ids = [d.id for d in expired]
        self.log.record("gc", ids, f"tombstoned more than {ttl_days} days ago")
        self.store.delete_documents(ids)
        return len(ids)

    def collect_unheld_tombstones(self, ttl_days: float) -> int:
        cutoff = now() - ttl_days * DAY
        expired = self.store.filter_documents(
            {"field": "meta." + TOMBSTONE_KEY, "operator": "<", "value": cutoff}
        )
        free = [d.id for d in expired if not self.holders.is_held(d.id)]
        kept = len(expired) - len(free)
        if kept:
            logger.info("keeping %d expired tombstones still referenced", kept)
        if not free:
            return 0
        self.log.record("gc", free, f"tombstoned more than {ttl_days} days ago and unreferenced")
        self.store.delete_documents(free)
        return len(free)
