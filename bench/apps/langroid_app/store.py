"""The context buffer: ContextSpans mirrored to/from a ChatAgent's message_history."""
from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Set

from langroid.agent.chat_agent import ChatAgent

from .models import ContextSpan, digest


class SpanBuffer:
    def __init__(self) -> None:
        self._spans: Dict[str, ContextSpan] = {}
        self._order: List[str] = []
        self._holders: Dict[str, Set[str]] = defaultdict(set)

    # --- basic access -------------------------------------------------
    def add(self, span: ContextSpan, after: Optional[str] = None) -> ContextSpan:
        self._spans[span.span_id] = span
        if after is not None and after in self._order:
            self._order.insert(self._order.index(after) + 1, span.span_id)
        else:
            self._order.append(span.span_id)
        return span

    def get(self, span_id: str) -> ContextSpan:
        return self._spans[span_id]

    def find(self, span_id: str) -> Optional[ContextSpan]:
        return self._spans.get(span_id)

    def __iter__(self) -> Iterator[ContextSpan]:
        return (self._spans[sid] for sid in self._order if sid in self._spans)

    def live(self) -> List[ContextSpan]:
        return [s for s in self if not s.is_tombstoned]

    def all_spans(self) -> List[ContextSpan]:
        return list(self._spans.values())

    # --- holders --------------------------------------------------------
    def hold(self, span_id: str, holder: str) -> None:
        self._holders[span_id].add(holder)

    def release(self, span_id: str, holder: str) -> None:
        self._holders[span_id].discard(holder)

    def holders(self, span_id: str) -> Set[str]:
        return set(self._holders.get(span_id, ()))

    # --- mutation -------------------------------------------------------
    def rewrite(self, span_id: str, new_content: str, op: str) -> ContextSpan:
        span = self._spans[span_id]
        span.content = new_content
        span.version += 1
        span.content_hash = digest(new_content)
        span.produced_by = f"rewrite:{op}"
        return span

    def swap_content(self, span_id: str, new_content: str, op: str) -> ContextSpan:
        """Put back content from a snapshot (undo of a redaction etc.)."""
        current = self._spans[span_id]
        restored = dataclasses.replace(
            current,
            content=new_content,
            version=current.version + 1,
            produced_by=f"restore:{op}",
        )
        self._spans[span_id] = restored
        return restored

    def fork(self, span_id: str, new_content: str, op: str) -> ContextSpan:
        old = self._spans[span_id]
        new = ContextSpan.create(
            new_content,
            role=old.role,
            produced_by=f"rewrite:{op}",
            chat_document_id=old.chat_document_id,
            parent_ids=(old.span_id,),
        )
        new.version = old.version + 1
        self.add(new, after=old.span_id)
        old.tombstoned_at = time.time()
        return new

    def tombstone(self, span_id: str) -> None:
        self._spans[span_id].tombstoned_at = time.time()

    def purge(self, span_id: str) -> None:
        self._spans.pop(span_id, None)
        self._holders.pop(span_id, None)
        if span_id in self._order:
            self._order.remove(span_id)

    # --- framework glue -------------------------------------------------
    def mirror(self, agent: ChatAgent) -> None:
        """Pick up messages the agent appended since the last mirror."""
        known = {s.chat_document_id for s in self._spans.values() if s.chat_document_id}
        for msg in agent.message_history:
            if msg.chat_document_id and msg.chat_document_id in known:
                continue
            self.add(ContextSpan.from_llm_message(msg))

    def push(self, agent: ChatAgent) -> None:
        agent.message_history = [s.to_llm_message() for s in self.live()]


class SnapshotStore:
    """JSON-lines persistence of the buffer, one dict record per span."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._rows: Dict[str, Dict[str, Any]] = {}
        self._lock = asyncio.Lock()

    def load(self) -> None:
        if not self.path.exists():
            return
        for line in self.path.read_text().splitlines():
            row = json.loads(line)
            self._rows[row["span_id"]] = row

    def capture(self, spans: Iterable[ContextSpan]) -> None:
        for s in spans:
            self._rows[s.span_id] = {
                "span_id": s.span_id,
                "content": s.content,
                "version": s.version,
                "hash": s.content_hash,
                "role": s.role,
            }

    def row(self, span_id: str) -> Dict[str, Any]:
        return dict(self._rows[span_id])

    async def apply_patch(self, patches: List[Dict[str, str]]) -> int:
        n = 0
        async with self._lock:
            for patch in patches:
                rec = self._rows.get(patch["span_id"])
                if rec is None:
                    continue
                rec["content"] = patch["content"]
                rec["hash"] = digest(patch["content"])
                n += 1
        await asyncio.to_thread(self.flush)
        return n

    def flush(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("w") as fh:
            for row in self._rows.values():
                fh.write(json.dumps(row) + "\n")
