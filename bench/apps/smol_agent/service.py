"""Application service: runs the agent and exposes context operations to the API layer."""

from __future__ import annotations

import asyncio
import html
import re
from dataclasses import dataclass, field, replace
from typing import Any

from smolagents import CodeAgent

from .agent_factory import build_agent, build_model
from .citations import CitationIndex
from .decision_log import DecisionLog
from .embeddings import SimilarityIndex, VersionedEmbeddingCache
from .housekeeping import Job, JobQueue, run_housekeeping
from .memory_glue import StepLedger, compact_memory_logged
from .models import ContextSpan, Note, digest
from .operators import compress_and_reset, summarize_as_copy
from .settings import Settings
from .store import SpanBuffer, ingest_memory
from .summarization import RollingSummarizer, summarize_from_sources
from .tools import EditNoteTool, RecallSpanTool, SearchContextTool


def to_http_response(span: ContextSpan) -> dict[str, Any]:
    body = {"id": span.span_id, "text": span.content, "version": span.version}
    body["text"] = html.escape(body["text"])
    return body


@dataclass
class ContextService:
    settings: Settings
    buffer: SpanBuffer = field(default_factory=SpanBuffer)
    log: DecisionLog = field(default_factory=DecisionLog)
    index: SimilarityIndex = field(default_factory=SimilarityIndex)
    vectors: VersionedEmbeddingCache = field(default_factory=VersionedEmbeddingCache)
    ledger: StepLedger = field(default_factory=StepLedger)
    citations: CitationIndex = field(default_factory=CitationIndex)
    jobs: JobQueue = field(default_factory=JobQueue)
    notes: dict[str, Note] = field(default_factory=dict)
    agent: CodeAgent | None = None

    def __post_init__(self) -> None:
        self._lock = asyncio.Lock()
        self.log = DecisionLog(self.settings.decision_log_path)
        self.model = build_model(self.settings)
        self.summarizer = RollingSummarizer(self.model, self.settings.summary_budget_chars)

    def start(self) -> CodeAgent:
        tools = [
            RecallSpanTool(self.buffer),
            SearchContextTool(self.buffer, self.index),
            EditNoteTool(self.notes),
        ]
        self.agent = build_agent(
            self.settings, self.model, tools, self.ledger, self.citations, self.summarizer
        )
        return self.agent

    def ask(self, task: str, reset: bool = False) -> Any:
        agent = self.agent or self.start()
        result = agent.run(task, reset=reset)
        ingest_memory(self.buffer, agent.memory)
        return result

    async def apply_redaction(self, span_id: str, pattern: str) -> dict[str, Any]:
        async with self._lock:
            span = self.buffer.get(span_id)
            cleaned = await asyncio.to_thread(re.sub, pattern, "[redacted]", span.content)
            updated = replace(span, content=cleaned, content_hash=digest(cleaned), produced_by="rewrite:redact")
            self.buffer.put(updated)
        return to_http_response(updated)

    async def summarize_span(self, span_id: str) -> dict[str, Any]:
        async with self._lock:
            new_span = await asyncio.to_thread(
                summarize_as_copy, self.buffer, span_id, self.model, self.settings.summary_budget_chars
            )
        return to_http_response(new_span)

    async def compress_span(self, span_id: str) -> dict[str, Any]:
        async with self._lock:
            span = self.buffer.get(span_id)
            await asyncio.to_thread(compress_and_reset, span, self.model, self.settings.summary_budget_chars)
        return to_http_response(span)

    def compact(self, keep_last: int = 4) -> int:
        if self.agent is None:
            return 0
        return compact_memory_logged(self.agent, self.log, keep_last)

    def digest_of_run(self) -> str:
        if self.agent is None:
            return ""
        return summarize_from_sources(self.agent.memory, self.model, self.settings.summary_budget_chars)

    def enqueue(self, kind: str, payload: dict[str, Any]) -> Job:
        job = Job(job_id=f"job-{len(self.jobs._jobs) + 1}", kind=kind, payload=payload)
        self.jobs.push(job)
        return job

    def housekeeping(self) -> dict[str, int]:
        return run_housekeeping(
            self.buffer, self.jobs, self.settings.tombstone_ttl_seconds, self.settings.job_ttl_seconds
        )
