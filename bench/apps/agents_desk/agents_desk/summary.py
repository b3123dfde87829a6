"""Rolling conversation summary maintained by a dedicated summarizer agent."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence

from .decision_log import DecisionLog
from .models import ContextSpan, SummaryRecord
from .store import ContextStore

Summarize = Callable[[str], Awaitable[str]]


class RollingSummary:
    def __init__(self, store: ContextStore, decisions: DecisionLog, summarize: Summarize) -> None:
        self.store = store
        self.decisions = decisions
        self.summarize = summarize
        self.current: SummaryRecord | None = None
        self.history: list[SummaryRecord] = []

    async def roll(self, new_turns: Sequence[ContextSpan]) -> SummaryRecord:
        prior = self.current.text if self.current else ""
        prompt = prior + "\n\n" + "\n".join(t.text for t in new_turns)
        text = await self.summarize(prompt)
        record = SummaryRecord(summary_id=f"sum-{uuid.uuid4().hex[:8]}", text=text)
        self.current = record
        self.history.append(record)
        return record

    async def roll_with_lineage(self, new_turns: Sequence[ContextSpan]) -> SummaryRecord:
        prior = self.current
        prompt = (prior.text if prior else "") + "\n\n" + "\n".join(t.text for t in new_turns)
        text = await self.summarize(prompt)
        source_ids = (list(prior.source_span_ids) if prior else []) + [t.span_id for t in new_turns]
        hashes = dict(prior.source_hashes) if prior else {}
        hashes.update({t.span_id: t.content_hash for t in new_turns})
        record = SummaryRecord(
            summary_id=f"sum-{uuid.uuid4().hex[:8]}",
            text=text,
            source_span_ids=source_ids,
            source_hashes=hashes,
            parent_summary_id=prior.summary_id if prior else None,
            generation=(prior.generation + 1) if prior else 1,
        )
        self.decisions.record("summarize", list(new_turns), f"rolled into {record.summary_id}")
        self.current = record
        self.history.append(record)
        return record

    async def rebuild_from_sources(self, span_ids: Sequence[str]) -> SummaryRecord:
        sources = [self.store.get(sid) for sid in span_ids]
        text = await self.summarize("\n".join(s.text for s in sources))
        record = SummaryRecord(
            summary_id=f"sum-{uuid.uuid4().hex[:8]}",
            text=text,
            source_span_ids=[s.span_id for s in sources],
            source_hashes={s.span_id: s.content_hash for s in sources},
        )
        self.current = record
        self.history.append(record)
        return record

    async def digest_history(self) -> str:
        blocks = [r.text for r in self.history[-5:]]
        return await self.summarize("Condense these running summaries:\n" + "\n---\n".join(blocks))
