"""Long-term archive of evicted spans on top of crewai's unified Memory."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from pathlib import Path

from crewai import LLM
from crewai.memory import Memory, MemoryRecord
from crewai.memory.storage.lancedb_storage import LanceDBStorage

from crew_flow.decisions import DecisionLog
from crew_flow.operators import redact_text
from crew_flow.spans import ContextSpan

log = logging.getLogger(__name__)

ARCHIVE_SCOPE = "/spans"
TOMBSTONE_SCOPE = "/spans/tombstoned"

CONDENSE_PROMPT = (
    "Condense the following archived research note to at most {n} words. "
    "Keep names, numbers and URLs verbatim.\n\n{text}"
)


class SpanArchive:
    def __init__(
        self,
        decisions: DecisionLog,
        path: str | Path = ".crew_flow/memory",
        llm: str = "gpt-4o-mini",
        embedder: dict | None = None,
    ) -> None:
        self.decisions = decisions
        self.storage = LanceDBStorage(path=str(path), table_name="span_archive")
        self.memory = Memory(
            llm=llm,
            storage=self.storage,
            embedder=embedder,
            root_scope="/crew_flow",
            consolidation_threshold=1.0,
        )
        self._llm = LLM(model=llm, temperature=0.0)

    def archive(self, span: ContextSpan, importance: float = 0.5) -> MemoryRecord | None:
        return self.memory.remember(
            span.content,
            scope=ARCHIVE_SCOPE,
            categories=[span.kind],
            metadata={
                "span_id": span.id,
                "span_version": span.version,
                "content_hash": span.content_hash,
                "produced_by": span.produced_by,
            },
            importance=importance,
            source="crew_flow",
        )

    def recall(self, query: str, limit: int = 5) -> list[MemoryRecord]:
        matches = self.memory.recall(query, scope=ARCHIVE_SCOPE, limit=limit, depth="shallow")
        return [m.record for m in matches]

    def condense(self, record_id: str, words: int = 80) -> MemoryRecord:
        rec = self.storage.get_record(record_id)
        if rec is None:
            raise KeyError(record_id)
        short = self._llm.call(CONDENSE_PROMPT.format(n=words, text=rec.content))
        return self.memory.update(
            rec.id,
            content=str(short).strip(),
            metadata={**rec.metadata, "condensed": True},
        )

    def scrub(self, record_ids: Iterable[str]) -> int:
        n = 0
        for rid in record_ids:
            rec = self.storage.get_record(rid)
            if rec is None:
                continue
            clean = redact_text(rec.content)
            if clean == rec.content:
                continue
            self.storage.update(rec.model_copy(update={"content": clean}))
            n += 1
        return n

    def rewrite_as_new(self, record_id: str, content: str, op: str) -> MemoryRecord | None:
        old = self.storage.get_record(record_id)
        if old is None:
            raise KeyError(record_id)
        new = self.memory.remember(
            content,
            scope=ARCHIVE_SCOPE,
            categories=list(old.categories),
            metadata={**old.metadata, "supersedes": old.id, "produced_by": f"rewrite:{op}"},
            importance=old.importance,
            source=old.source,
        )
        if new is not None:
            self.memory.update(
                old.id,
                scope=TOMBSTONE_SCOPE,
                metadata={**old.metadata, "superseded_by": new.id},
            )
        return new

    def supersede(self, stale_ids: list[str], because_id: str) -> int:
        removed = self.memory.forget(scope=ARCHIVE_SCOPE, record_ids=[*stale_ids, because_id])
        self.decisions.record(
            "prune",
            rationale=f"archived notes superseded by finding in {because_id}",
            record_ids=[*stale_ids, because_id],
        )
        return removed

    def retire(self, records: list[MemoryRecord], rationale: str) -> int:
        self.decisions.record(
            "retire",
            rationale=rationale + " | " + "; ".join(r.content[:160] for r in records),
            record_ids=[r.id for r in records],
        )
        return self.memory.forget(scope=ARCHIVE_SCOPE, record_ids=[r.id for r in records])

    def sweep_tombstones(self, keep_days: int = 14) -> int:
        cutoff = datetime.utcnow() - timedelta(days=keep_days)
        n = self.memory.forget(scope=TOMBSTONE_SCOPE, older_than=cutoff)
        log.info("swept %d archived tombstones older than %s", n, cutoff.isoformat())
        return n

    def sweep_unheld(self, held_record_ids: Iterable[str], batch: int = 200) -> int:
        held = set(held_record_ids)
        candidates = self.memory.list_records(scope=TOMBSTONE_SCOPE, limit=batch)
        doomed = [r.id for r in candidates if r.id not in held]
        if not doomed:
            return 0
        self.decisions.record(
            "gc",
            rationale=f"{len(doomed)} tombstoned archive records have no holder",
            record_ids=doomed,
        )
        return self.memory.forget(scope=TOMBSTONE_SCOPE, record_ids=doomed)
