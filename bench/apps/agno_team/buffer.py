"""The working context buffer shared by the team."""
from __future__ import annotations

import time
from collections import defaultdict
from types import MappingProxyType
from typing import Dict, Iterable, List, Mapping, Optional, Set

from agno.knowledge.document import Document
from agno.models.message import Message

from agno_team.models import ContextSpan, content_digest, sentence_bounds


class SpanBuffer:
    def __init__(self) -> None:
        self._spans: Dict[str, ContextSpan] = {}
        self._order: List[str] = []
        self._holders: Dict[str, Set[str]] = defaultdict(set)

    # -- ingest -----------------------------------------------------------
    def add(self, span: ContextSpan) -> ContextSpan:
        if span.span_id not in self._spans:
            self._order.append(span.span_id)
        self._spans[span.span_id] = span
        return span

    def add_messages(self, messages: Iterable[Message]) -> List[ContextSpan]:
        added = []
        for message in messages:
            if message.role == "system":
                continue
            added.append(
                self.add(
                    ContextSpan(
                        span_id=message.id,
                        content=message.get_content_string(),
                        kind="message",
                        role=message.role,
                    )
                )
            )
        return added

    def add_documents(self, documents: Iterable[Document]) -> List[ContextSpan]:
        added = []
        for doc in documents:
            span_id = doc.id or content_digest(doc.content)[:16]
            added.append(
                self.add(
                    ContextSpan(span_id=span_id, content=doc.content, kind="document", source_id=doc.content_id)
                )
            )
        return added

    # -- access -----------------------------------------------------------
    def get(self, span_id: str) -> Optional[ContextSpan]:
        return self._spans.get(span_id)

    def all(self) -> List[ContextSpan]:
        return [self._spans[i] for i in self._order if i in self._spans]

    def live(self) -> List[ContextSpan]:
        return [s for s in self.all() if not s.tombstoned]

    def view(self) -> Mapping[str, ContextSpan]:
        return MappingProxyType(self._spans)

    def total_chars(self) -> int:
        return sum(len(s.content) for s in self.live())

    # -- holders ----------------------------------------------------------
    def hold(self, span_id: str, holder: str) -> None:
        self._holders[span_id].add(holder)

    def release(self, span_id: str, holder: str) -> None:
        self._holders[span_id].discard(holder)

    def holders_of(self, span_id: str) -> Set[str]:
        return set(self._holders.get(span_id, ()))

    # -- edits ------------------------------------------------------------
    def put(self, span: ContextSpan) -> None:
        self._spans[span.span_id] = span

    def replace_content(self, span_id: str, new_content: str, op: str) -> ContextSpan:
        span = self._spans[span_id]
        span.content = new_content
        span.version += 1
        span.content_hash = content_digest(new_content)
        span.produced_by = f"rewrite:{op}"
        span.char_offsets = sentence_bounds(new_content)
        span.embedding = None
        return span

    def rewrite(self, span_id: str, new_content: str, op: str) -> ContextSpan:
        old = self._spans[span_id]
        new = ContextSpan(
            span_id=f"{span_id}@{op}:{old.version + 1}",
            content=new_content,
            kind=old.kind,
            role=old.role,
            source_id=old.source_id or old.span_id,
            version=old.version + 1,
            produced_by=f"rewrite:{op}",
        )
        self.add(new)
        old.tombstoned = True
        old.tombstoned_at = time.time()
        old.superseded_by = new.span_id
        return new

    def tombstone(self, span_id: str) -> None:
        span = self._spans.get(span_id)
        if span is not None and not span.tombstoned:
            span.tombstoned = True
            span.tombstoned_at = time.time()

    def remove(self, span_id: str) -> Optional[ContextSpan]:
        self._holders.pop(span_id, None)
        return self._spans.pop(span_id, None)
