"""The context buffer: a ChatHistory whose messages carry SpanBody content."""

from __future__ import annotations

import time
import uuid
from collections import defaultdict
from typing import Iterator, Optional

from atomic_agents.context import ChatHistory, Message

from .decision_log import DecisionLog, evidence_for
from .models import SpanBody, SummaryBody, digest


class SpanHistory(ChatHistory):
    """ChatHistory with span lookup, holder tracking and logged overflow."""

    def __init__(self, max_messages: Optional[int] = None, decision_log: Optional[DecisionLog] = None):
        super().__init__(max_messages=max_messages)
        self.decision_log = decision_log or DecisionLog()
        self.holders: dict[str, set[str]] = defaultdict(set)

    # --- lookup -------------------------------------------------------------
    def spans(self) -> Iterator[Message]:
        for msg in self.history:
            if isinstance(msg.content, (SpanBody, SummaryBody)):
                yield msg

    def find(self, span_id: str) -> Optional[Message]:
        for msg in self.spans():
            if msg.content.span_id == span_id:
                return msg
        return None

    def body(self, span_id: str) -> Optional[SpanBody]:
        msg = self.find(span_id)
        return msg.content if msg is not None else None

    def add_span(self, text: str, role: str = "system", span_id: Optional[str] = None,
                 produced_by: str = "ingest") -> SpanBody:
        body = SpanBody(span_id=span_id or f"sp-{uuid.uuid4().hex[:10]}", text=text, produced_by=produced_by)
        self.add_message(role, body)
        return body

    # --- holders ------------------------------------------------------------
    def hold(self, span_id: str, holder: str) -> None:
        self.holders[span_id].add(holder)

    def release(self, span_id: str, holder: str) -> None:
        self.holders[span_id].discard(holder)
        if not self.holders[span_id]:
            self.holders.pop(span_id, None)

    def is_held(self, span_id: str) -> bool:
        return bool(self.holders.get(span_id))

    # --- edits --------------------------------------------------------------
    def replace_text(self, span_id: str, new_text: str, op: str) -> SpanBody:
        body = self.body(span_id)
        if body is None:
            raise KeyError(span_id)
        body.text = new_text
        body.version += 1
        body.content_hash = digest(new_text)
        body.produced_by = f"rewrite:{op}"
        return body

    def copy_on_rewrite(self, span_id: str, new_text: str, op: str) -> SpanBody:
        old = self.body(span_id)
        if old is None:
            raise KeyError(span_id)
        new_body = SpanBody(
            span_id=f"{span_id}@{op}:{old.version + 1}",
            text=new_text,
            version=old.version + 1,
            produced_by=f"rewrite:{op}",
        )
        old.tombstoned = True
        old.tombstoned_at = time.time()
        old.superseded_by = new_body.span_id
        self.add_message("system", new_body)
        return new_body

    def _manage_overflow(self) -> None:
        if self.max_messages is None:
            return
        excess = len(self.history) - self.max_messages
        if excess <= 0:
            return
        doomed = self.history[:excess]
        self.decision_log.record(
            edit_id=self.decision_log.new_edit_id(),
            action="overflow",
            span_ids=[m.content.span_id for m in doomed if isinstance(m.content, SpanBody)],
            rationale=f"history exceeded max_messages={self.max_messages}",
            evidence=evidence_for(doomed),
        )
        del self.history[:excess]

    def copy(self) -> "SpanHistory":
        new = SpanHistory(max_messages=self.max_messages, decision_log=self.decision_log)
        new.history = [m.model_copy(deep=True) for m in self.history]
        new.current_turn_id = self.current_turn_id
        return new
