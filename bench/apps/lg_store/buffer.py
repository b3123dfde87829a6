"""Store-backed context buffer on top of a LangGraph ``BaseStore``."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator

from langgraph.store.base import BaseStore

from .models import SpanRecord, content_digest, sentence_offsets
from .settings import Settings


class SpanBuffer:
    def __init__(self, store: BaseStore, thread_id: str, settings: Settings) -> None:
        self.store = store
        self.thread_id = thread_id
        self.ns: tuple[str, ...] = (settings.span_namespace, thread_id)

    def add(
        self,
        content: str,
        *,
        produced_by: str = "ingest",
        kind: str = "source",
        source_ids: Iterable[str] = (),
    ) -> SpanRecord:
        rec = SpanRecord(
            span_id=uuid.uuid4().hex,
            content=content,
            produced_by=produced_by,
            kind=kind,
            source_ids=list(source_ids),
        )
        self.store.put(self.ns, rec.span_id, rec.to_value())
        return rec

    def get(self, span_id: str) -> SpanRecord | None:
        item = self.store.get(self.ns, span_id)
        return SpanRecord.from_item(item) if item is not None else None

    def iter_items(self, **filters: object) -> Iterator:
        offset = 0
        while True:
            page = self.store.search(self.ns, filter=dict(filters) or None, limit=100, offset=offset)
            if not page:
                return
            yield from page
            offset += len(page)

    def live(self) -> list[SpanRecord]:
        return [SpanRecord.from_item(it) for it in self.iter_items(tombstoned=False)]

    def save(self, rec: SpanRecord) -> None:
        self.store.put(self.ns, rec.span_id, rec.to_value())

    def rewrite(self, span_id: str, new_content: str, op: str) -> SpanRecord:
        rec = self.get(span_id)
        if rec is None:
            raise KeyError(span_id)
        rec.content = new_content
        rec.version += 1
        rec.content_hash = content_digest(new_content)
        rec.sentence_offsets = sentence_offsets(new_content)
        rec.produced_by = f"rewrite:{op}"
        self.save(rec)
        return rec

    def fork(self, span_id: str, new_content: str, op: str) -> SpanRecord:
        old = self.get(span_id)
        if old is None:
            raise KeyError(span_id)
        new = SpanRecord(
            span_id=f"{span_id}@{op}:{old.version + 1}",
            content=new_content,
            version=old.version + 1,
            produced_by=f"rewrite:{op}",
            kind=old.kind,
            parent_id=span_id,
            source_ids=list(old.source_ids) or [span_id],
        )
        self.save(new)
        old.tombstoned = True
        self.save(old)
        return new

    def tombstone(self, span_id: str) -> None:
        rec = self.get(span_id)
        if rec is not None and not rec.tombstoned:
            rec.tombstoned = True
            self.save(rec)
