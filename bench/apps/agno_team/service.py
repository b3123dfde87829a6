"""Application service: runs the team and maintains the working context."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

import httpx
from agno.team import Team

from agno_team.buffer import SpanBuffer
from agno_team.citations import PinnedCitation, resolve_pinned, to_agno_citations
from agno_team.decision_log import DecisionLog
from agno_team.embeddings import SpanEmbeddingIndex
from agno_team.housekeeping import JobQueue, sweep_unheld_tombstones
from agno_team.offsets import OffsetIndex
from agno_team.operators import canonicalize_span, compress_spans, redact_span
from agno_team.pruning import compact_low_relevance, over_budget
from agno_team.settings import Settings
from agno_team.team import build_team


@dataclass
class AnswerEvent:
    id: str
    session_id: str
    text: str
    citations: List[str]


def build_webhook_payload(event: AnswerEvent, max_chars: int = 2000) -> Dict[str, Any]:
    payload = {"id": event.id, "session": event.session_id, "text": event.text, "citations": event.citations}
    if len(payload["text"]) > max_chars:
        payload["text"] = payload["text"][: max_chars - 1] + "…"
    return payload


def post_webhook(url: str, event: AnswerEvent) -> Optional[int]:
    if not url:
        return None
    response = httpx.post(url, json=build_webhook_payload(event), timeout=10.0)
    return response.status_code


class AccountStore:
    def __init__(self, path: str) -> None:
        self._conn = sqlite3.connect(path)
        self._conn.execute(
            "CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, display_name TEXT, email TEXT)"
        )

    def rename(self, account_id: str, display_name: str) -> None:
        with self._conn:
            self._conn.execute("UPDATE accounts SET display_name = ? WHERE id = ?", (display_name.strip(), account_id))

    def get(self, account_id: str) -> Optional[Dict[str, str]]:
        row = self._conn.execute("SELECT id, display_name, email FROM accounts WHERE id = ?", (account_id,)).fetchone()
        return dict(zip(("id", "display_name", "email"), row)) if row else None


class ContextService:
    def __init__(self, settings: Settings, team: Optional[Team] = None) -> None:
        self.settings = settings
        self.buffer = SpanBuffer()
        self.log = DecisionLog(settings.decision_log_path)
        self.offsets = OffsetIndex()
        self.vectors: Optional[SpanEmbeddingIndex] = None
        self.jobs = JobQueue()
        self.team = team or build_team(settings, self.buffer, self.log)

    def ask(self, question: str, session_id: str, user_id: Optional[str] = None) -> AnswerEvent:
        output = self.team.run(question, session_id=session_id, user_id=user_id, stream=False)
        spans = self.buffer.add_messages(output.messages or [])
        for span in spans:
            redact_span(self.buffer, span.span_id)
            canonicalize_span(span)
            self.offsets.build(span)
        pinned = [PinnedCitation.pin(s, 0, min(len(s.content), 160), label=s.role or "") for s in spans if s.role == "tool"]
        agno_citations = to_agno_citations(pinned, self.buffer)
        event = AnswerEvent(
            id=output.run_id or "",
            session_id=session_id,
            text=str(output.content or ""),
            citations=[d.cited_text or "" for d in (agno_citations.documents or [])] if agno_citations else [],
        )
        self.jobs.enqueue("webhook", run_id=event.id)
        return event

    def quote(self, citation: PinnedCitation) -> str:
        return resolve_pinned(citation, self.buffer)

    def maintain(self, scores: Dict[str, float]) -> None:
        if over_budget(self.buffer, self.settings.context_budget_chars):
            compact_low_relevance(self.buffer, self.log, scores, self.settings.relevance_threshold)
        if over_budget(self.buffer, self.settings.context_budget_chars):
            compress_spans(self.buffer, self.buffer.live(), self.settings.compress_target_chars)
        sweep_unheld_tombstones(self.buffer, self.log, self.settings.tombstone_ttl_s)
        self.jobs.purge_finished(self.settings.job_ttl_s)
