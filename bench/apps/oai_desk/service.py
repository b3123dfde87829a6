"""Service layer: ticket storage, job queue, and JSON payloads for the web front end."""

from __future__ import annotations

import sqlite3
import time
import uuid
from collections import deque
from typing import Any

from agents import Runner, SQLiteSession

from .context import DeskContext
from .desk_agents import build_agents, run_config
from .hooks import DeskHooks
from .housekeeping import collect_tombstones
from .models import DeskSpan, TicketRow
from .pruning import budget_cut
from .session_store import DeskSession
from .settings import DeskSettings


class TicketRepository:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._conn.execute(
            "CREATE TABLE IF NOT EXISTS tickets (id INTEGER PRIMARY KEY, subject TEXT, status TEXT,"
            " assignee TEXT, updated_at REAL)"
        )

    def get(self, ticket_id: int) -> TicketRow | None:
        row = self._conn.execute(
            "SELECT id, subject, status, assignee, updated_at FROM tickets WHERE id = ?", (ticket_id,)
        ).fetchone()
        return TicketRow(*row) if row else None

    def update_status(self, ticket_id: int, status: str, assignee: str | None = None) -> None:
        self._conn.execute(
            "UPDATE tickets SET status = ?, assignee = ?, updated_at = ? WHERE id = ?",
            (status, assignee, time.time(), ticket_id),
        )
        self._conn.commit()


class JobQueue:
    def __init__(self, max_age_seconds: float = 900.0) -> None:
        self._jobs: dict[str, dict[str, Any]] = {}
        self._ready: deque[str] = deque()
        self._max_age = max_age_seconds

    def submit(self, kind: str, payload: dict[str, Any]) -> str:
        job_id = uuid.uuid4().hex
        self._jobs[job_id] = {"id": job_id, "kind": kind, "payload": payload, "attempts": 0, "queued_at": time.time()}
        self._ready.append(job_id)
        return job_id

    def retry(self, job_id: str, payload: dict[str, Any]) -> None:
        job = self._jobs[job_id]
        job["payload"] = payload
        job["attempts"] += 1
        self._ready.append(job_id)

    def expire(self, now: float | None = None) -> int:
        now = time.time() if now is None else now
        stale = [jid for jid, job in self._jobs.items() if now - job["queued_at"] > self._max_age]
        for jid in stale:
            del self._jobs[jid]
        return len(stale)


def span_payload(span: DeskSpan, max_chars: int = 500) -> dict[str, Any]:
    payload = {"id": span.span_id, "version": span.version, "text": span.content}
    if len(payload["text"]) > max_chars:
        payload["text"] = payload["text"][:max_chars] + "…"
        payload["truncated"] = True
    return payload


class DeskService:
    def __init__(self, settings: DeskSettings) -> None:
        self.settings = settings
        self.agents = build_agents(settings)
        self.contexts: dict[str, DeskContext] = {}
        self.tickets = TicketRepository(sqlite3.connect(settings.db_path))
        self.jobs = JobQueue()

    def context_for(self, ticket_id: str) -> DeskContext:
        if ticket_id not in self.contexts:
            archive = SQLiteSession(f"archive-{ticket_id}", self.settings.db_path)
            self.contexts[ticket_id] = DeskContext(ticket_id=ticket_id, session=DeskSession(ticket_id, archive=archive))
        return self.contexts[ticket_id]

    async def ask(self, ticket_id: str, message: str) -> dict[str, Any]:
        desk = self.context_for(ticket_id)
        result = await Runner.run(
            self.agents["triage"],
            message,
            context=desk,
            session=desk.session,
            hooks=DeskHooks(),
            run_config=run_config(),
        )
        budget_cut(desk.buffer, desk.log, self.settings.max_context_items)
        collect_tombstones(desk.buffer, desk.holders, self.settings.tombstone_ttl_seconds)
        return {
            "ticket_id": ticket_id,
            "answer": str(result.final_output),
            "agent": result.last_agent.name,
            "spans": [span_payload(s) for s in desk.buffer.live()],
        }
