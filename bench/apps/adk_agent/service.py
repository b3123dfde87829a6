"""Application service: runs turns through the ADK Runner and maintains context."""

from __future__ import annotations

import json
import logging
import urllib.request
from pathlib import Path
from typing import Any
from typing import Optional

from google import genai
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.sessions import Session
from google.genai import types

from .agent import build_app
from .buffer import ContextBuffer
from .citations import anchor
from .citations import resolve
from .decision_log import DecisionLog
from .embeddings import EmbeddingIndex
from .embeddings import VectorStore
from .housekeeping import HolderRegistry
from .housekeeping import JobQueue
from .housekeeping import collect_tombstones
from .memory_glue import CuratedMemoryService
from .models import AnchoredCitation
from .models import event_text
from .offsets import OffsetMapCache
from .operators import compress_span
from .operators import normalize_all
from .pruning import compact_context
from .settings import APP_NAME
from .settings import Settings
from .summarize import RollingSummary
from .summarize import TextGenerator

logger = logging.getLogger(__name__)


class BriefingService:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.buffer = ContextBuffer()
        self.log = DecisionLog(Path(settings.decision_log_path))
        self.memory = CuratedMemoryService(dim=settings.embedding_dim)
        self.sessions = InMemorySessionService()
        self.index = EmbeddingIndex(settings.embedding_dim)
        self.vectors = VectorStore(settings.embedding_dim)
        self.offsets = OffsetMapCache()
        self.holders = HolderRegistry()
        self.jobs = JobQueue()
        self.generate = TextGenerator(genai.Client(), settings.summary_model)
        self.rolling = RollingSummary(self.generate)
        self.app = build_app(settings, self.buffer, self.generate)
        self.runner = Runner(
            app=self.app, session_service=self.sessions, memory_service=self.memory
        )
        self.buffer.on_change(lambda rec: self.offsets.forget_span(rec.span_id))
        self._summarized_upto: dict[str, int] = {}

    async def start_session(self, user_id: str, session_id: Optional[str] = None) -> Session:
        return await self.sessions.create_session(
            app_name=APP_NAME, user_id=user_id, session_id=session_id, state={"notes": {}}
        )

    async def _session(self, user_id: str, session_id: str) -> Session:
        session = await self.sessions.get_session(
            app_name=APP_NAME, user_id=user_id, session_id=session_id
        )
        if session is None:
            raise KeyError(session_id)
        return session

    async def ask(self, user_id: str, session_id: str, text: str) -> str:
        message = types.Content(role="user", parts=[types.Part.from_text(text=text)])
        answer, answer_id = "", ""
        async for event in self.runner.run_async(
            user_id=user_id, session_id=session_id, new_message=message
        ):
            if event.is_final_response() and event.content:
                answer, answer_id = event_text(event), event.id
        session = await self._session(user_id, session_id)
        self.buffer.extend(session.events)
        self.index.index_events(session.events)
        for rec in self.buffer:
            self.vectors.upsert(rec)
        await self.memory.add_events_to_memory(
            app_name=APP_NAME,
            user_id=user_id,
            events=session.events[-4:],
            session_id=session_id,
        )
        user_turns = sum(1 for ev in session.events if ev.author == "user")
        if user_turns % self.settings.summary_every_n_turns == 0:
            self.jobs.submit("summarize", user_id=user_id, session_id=session_id)
        if self.settings.webhook_url and answer:
            self.notify(answer_id, answer)
        return answer

    async def refresh_summary(self, user_id: str, session_id: str) -> str:
        session = await self._session(user_id, session_id)
        start = self._summarized_upto.get(session_id, 0)
        new_events = session.events[start:]
        scratch: dict[str, Any] = dict(session.state)
        summary = await self.rolling.update(scratch, new_events)
        self._summarized_upto[session_id] = len(session.events)
        await self.sessions.append_event(
            session,
            Event(
                invocation_id=Event.new_id(),
                author="user",
                actions=EventActions(state_delta={RollingSummary.STATE_KEY: summary}),
            ),
        )
        return summary

    async def run_jobs(self) -> int:
        done = 0
        while (job := self.jobs.next_queued()) is not None:
            try:
                if job.kind == "summarize":
                    await self.refresh_summary(job.payload["user_id"], job.payload["session_id"])
                self.jobs.finish(job.job_id, ok=True)
            except Exception:
                logger.exception("job %s failed", job.job_id)
                self.jobs.finish(job.job_id, ok=False)
            done += 1
        self.jobs.purge_finished(self.settings.job_retention_seconds)
        return done

    def maintain_context(self) -> dict[str, int]:
        normalized = normalize_all(self.buffer)
        compressed = 0
        for rec in self.buffer:
            if len(rec.content) > self.settings.compress_span_chars:
                compress_span(self.buffer, rec.span_id, self.settings.compress_span_chars)
                compressed += 1
        pruned = compact_context(self.buffer, self.log)
        collected = collect_tombstones(self.buffer, self.settings.tombstone_ttl_seconds)
        return {
            "normalized": normalized,
            "compressed": compressed,
            "pruned": len(pruned),
            "collected": len(collected),
        }

    def cite_answer(self, quotes: dict[str, str]) -> list[AnchoredCitation]:
        out = []
        for span_id, quote in quotes.items():
            rec = self.buffer.find(span_id)
            if rec is None:
                continue
            c = anchor(rec, quote, label=span_id[:8])
            if c is not None:
                self.holders.hold(span_id, f"citation:{c.start}")
                out.append(c)
        return out

    def footnotes(self, citations: list[AnchoredCitation]) -> list[str]:
        return [f"{n}. \u201c{resolve(self.buffer, c)}\u201d" for n, c in enumerate(citations, 1)]

    async def update_note(
        self, user_id: str, session_id: str, note_id: str, text: str, expected_version: int
    ) -> dict[str, Any]:
        session = await self._session(user_id, session_id)
        notes = dict(session.state.get("notes", {}))
        current = notes.get(note_id)
        if current is None:
            return {"status": "not_found"}
        if current["version"] != expected_version:
            return {"status": "conflict", "version": current["version"]}
        notes[note_id] = {**current, "text": text, "version": current["version"] + 1}
        await self.sessions.append_event(
            session,
            Event(
                invocation_id=Event.new_id(),
                author="user",
                actions=EventActions(state_delta={"notes": notes}),
            ),
        )
        return {"status": "ok", "version": notes[note_id]["version"]}

    def webhook_payload(self, event_id: str, answer: str) -> dict[str, Any]:
        payload = {"id": event_id, "text": answer, "app": APP_NAME}
        if len(payload["text"]) > 1800:
            payload["text"] = payload["text"][:1800] + "\u2026"
        return payload

    def notify(self, event_id: str, answer: str) -> None:
        body = json.dumps(self.webhook_payload(event_id, answer)).encode("utf-8")
        req = urllib.request.Request(
            self.settings.webhook_url or "",
            data=body,
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(req, timeout=5) as resp:
                resp.read()
        except OSError:
            logger.warning("webhook delivery failed for %s", event_id)
