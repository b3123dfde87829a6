"""The context buffer: spans ingested from agent memory plus derived spans."""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from types import MappingProxyType
from typing import Callable, Iterable, Mapping

from smolagents.memory import AgentMemory

from .models import ContextSpan, digest, span_from_step


class StaleSpanError(RuntimeError):
    pass


class SpanBuffer:
    def __init__(self) -> None:
        self._spans: dict[str, ContextSpan] = {}
        self._holders: dict[str, set[str]] = defaultdict(set)
        self._lock = threading.RLock()

    def add(self, span: ContextSpan) -> ContextSpan:
        with self._lock:
            if span.span_id in self._spans:
                raise KeyError(f"duplicate span id {span.span_id}")
            self._spans[span.span_id] = span
        return span

    def put(self, span: ContextSpan) -> None:
        with self._lock:
            self._spans[span.span_id] = span

    def get(self, span_id: str) -> ContextSpan:
        return self._spans[span_id]

    def remove(self, span_id: str) -> ContextSpan:
        with self._lock:
            self._holders.pop(span_id, None)
            return self._spans.pop(span_id)

    def live(self) -> list[ContextSpan]:
        return [s for s in self._spans.values() if not s.is_tombstoned]

    def tombstoned(self) -> list[ContextSpan]:
        return [s for s in self._spans.values() if s.is_tombstoned]

    def view(self) -> Mapping[str, ContextSpan]:
        return MappingProxyType(self._spans)

    def hold(self, span_id: str, holder: str) -> None:
        self._holders[span_id].add(holder)

    def release(self, span_id: str, holder: str) -> None:
        self._holders[span_id].discard(holder)

    def holders(self, span_id: str) -> frozenset[str]:
        return frozenset(self._holders.get(span_id, ()))

    def rewrite(self, span_id: str, new_content: str, op: str) -> ContextSpan:
        with self._lock:
            span = self._spans[span_id]
            span.content = new_content
            span.version += 1
            span.content_hash = digest(new_content)
            span.produced_by = f"rewrite:{op}"
            span.embedding = None
            span.sentence_offsets = []
            return span

    def rewrite_as_copy(self, span_id: str, new_content: str, op: str) -> ContextSpan:
        with self._lock:
            old = self._spans[span_id]
            new_span = ContextSpan(
                span_id=f"{span_id}@{op}:{old.version + 1}",
                content=new_content,
                version=old.version + 1,
                produced_by=f"rewrite:{op}",
                source_step=old.source_step,
                derived_from=(old.span_id,),
            )
            self._spans[new_span.span_id] = new_span
            old.tombstoned_at = time.time()
            return new_span

    def export_records(self) -> dict[str, dict]:
        return {
            sid: {
                "content": s.content,
                "version": s.version,
                "content_hash": s.content_hash,
                "produced_by": s.produced_by,
            }
            for sid, s in self._spans.items()
        }

    def import_records(self, records: Mapping[str, dict]) -> None:
        with self._lock:
            for sid, rec in records.items():
                self._spans[sid] = ContextSpan(
                    span_id=sid,
                    content=rec["content"],
                    version=rec["version"],
                    content_hash=rec["content_hash"],
                    produced_by=rec.get("produced_by", "ingest"),
                )


def ingest_memory(buffer: SpanBuffer, memory: AgentMemory) -> list[ContextSpan]:
    added = []
    for index, step in enumerate(memory.steps):
        span = span_from_step(step, index)
        if span.content and span.span_id not in buffer.view():
            added.append(buffer.add(span))
    return added


def bulk_rewrite(records: Mapping[str, dict], fn: Callable[[str], str]) -> dict[str, dict]:
    return {
        sid: {**rec, "content": fn(rec["content"]), "version": rec["version"] + 1}
        for sid, rec in records.items()
    }


def apply_bulk(buffer: SpanBuffer, fn: Callable[[str], str], only: Iterable[str] | None = None) -> None:
    records = buffer.export_records()
    if only is not None:
        wanted = set(only)
        records = {sid: rec for sid, rec in records.items() if sid in wanted}
    buffer.import_records(bulk_rewrite(records, fn))
