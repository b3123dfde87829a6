"""The context buffer: SpanRecords mirrored from ADK session events."""

from __future__ import annotations

import time
from typing import Callable
from typing import Iterable
from typing import Iterator
from typing import Optional

from google.adk.events.event import Event

from .models import SpanRecord
from .models import content_digest
from .models import event_text
from .models import sentence_bounds

ChangeListener = Callable[[SpanRecord], None]


class ContextBuffer:
    def __init__(self) -> None:
        self._spans: dict[str, SpanRecord] = {}
        self._tombstones: dict[str, SpanRecord] = {}
        self._listeners: list[ChangeListener] = []

    def __len__(self) -> int:
        return len(self._spans)

    def __iter__(self) -> Iterator[SpanRecord]:
        return iter(list(self._spans.values()))

    def values(self) -> list[SpanRecord]:
        return list(self._spans.values())

    def on_change(self, listener: ChangeListener) -> None:
        self._listeners.append(listener)

    def add(self, record: SpanRecord) -> SpanRecord:
        self._spans[record.span_id] = record
        return record

    def add_event(self, event: Event) -> Optional[SpanRecord]:
        text = event_text(event)
        if not text or event.id in self._spans:
            return None
        return self.add(
            SpanRecord(span_id=event.id, content=text, source_event_id=event.id)
        )

    def extend(self, events: Iterable[Event]) -> int:
        return sum(1 for ev in events if self.add_event(ev) is not None)

    def get(self, span_id: str) -> SpanRecord:
        return self._spans[span_id]

    def find(self, span_id: str) -> Optional[SpanRecord]:
        return self._spans.get(span_id) or self._tombstones.get(span_id)

    def replace_text(self, span_id: str, new_text: str, *, op: str) -> SpanRecord:
        rec = self._spans[span_id]
        rec.content = new_text
        rec.version += 1
        rec.content_hash = content_digest(new_text)
        rec.sentence_spans = sentence_bounds(new_text)
        rec.produced_by = f"rewrite:{op}"
        for listener in self._listeners:
            listener(rec)
        return rec

    def rewrite_as_copy(self, span_id: str, new_text: str, *, op: str) -> SpanRecord:
        old = self._spans.pop(span_id)
        old.tombstoned_at = time.time()
        self._tombstones[old.span_id] = old
        successor = SpanRecord(
            span_id=f"{old.span_id}@{op}:{old.version + 1}",
            content=new_text,
            version=old.version + 1,
            produced_by=f"rewrite:{op}",
            source_event_id=old.source_event_id,
        )
        self._spans[successor.span_id] = successor
        return successor

    def remove(self, span_id: str) -> SpanRecord:
        return self._spans.pop(span_id)

    def tombstone(self, span_id: str) -> SpanRecord:
        rec = self._spans.pop(span_id)
        rec.tombstoned_at = time.time()
        self._tombstones[span_id] = rec
        return rec

    def tombstones(self) -> list[SpanRecord]:
        return list(self._tombstones.values())

    def drop_tombstone(self, span_id: str) -> None:
        del self._tombstones[span_id]
