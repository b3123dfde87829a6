"""Housekeeping for tombstoned spans and their bookkeeping."""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Dict, Iterable, List, Optional, Set

from llama_index.core.storage.docstore.types import BaseDocumentStore

from li_workflow.buffer import ContextBuffer
from li_workflow.decision_log import DecisionLog, new_edit_id
from li_workflow.spans import TOMBSTONED_AT

DEFAULT_TTL_S = 6 * 3600


class HolderRegistry:
    """Who still points at a span: citations in flight, caches, open drafts."""

    def __init__(self) -> None:
        self._holders: Dict[str, Set[str]] = defaultdict(set)

    def hold(self, span_id: str, holder: str) -> None:
        self._holders[span_id].add(holder)

    def release(self, span_id: str, holder: str) -> None:
        held = self._holders.get(span_id)
        if held is not None:
            held.discard(holder)
            if not held:
                del self._holders[span_id]

    def is_held(self, span_id: str) -> bool:
        return bool(self._holders.get(span_id))


def sweep_tombstones(
    docstore: BaseDocumentStore,
    log: DecisionLog,
    ttl_s: float = DEFAULT_TTL_S,
    now: Optional[float] = None,
) -> List[str]:
    now = time.time() if now is None else now
    expired = [
        node_id
        for node_id, node in docstore.docs.items()
        if node.metadata.get(TOMBSTONED_AT) is not None
        and now - float(node.metadata[TOMBSTONED_AT]) > ttl_s
    ]
    if not expired:
        return []
    log.record(
        edit_id=new_edit_id("sweep"),
        op="sweep_tombstones",
        rationale=f"tombstoned more than {ttl_s:.0f}s ago",
        span_ids=expired,
    )
    for node_id in expired:
        docstore.delete_document(node_id, raise_error=False)
    return expired


def compact_tombstones(
    buffer: ContextBuffer,
    holders: HolderRegistry,
    ttl_s: float = DEFAULT_TTL_S,
    now: Optional[float] = None,
) -> List[str]:
    now = time.time() if now is None else now
    candidates = [
        s.span_id
        for s in buffer.tombstoned()
        if s.tombstoned_at is not None
        and now - s.tombstoned_at > ttl_s
        and not holders.is_held(s.span_id)
    ]
    if not candidates:
        return []
    buffer.log.record(
        edit_id=new_edit_id("compact-tomb"),
        op="compact_tombstones",
        rationale=f"tombstoned over {ttl_s:.0f}s and unreferenced",
        span_ids=candidates,
    )
    for span_id in candidates:
        buffer.drop(span_id)
    return candidates


def forget_swept(log: DecisionLog, swept: Iterable[str]) -> int:
    gone = set(swept)
    xs = log.entries
    before = len(xs)
    xs[:] = [
        e
        for e in xs
        if e.op == "sweep_tombstones" or not gone.intersection(e.span_ids)
    ]
    return before - len(xs)
