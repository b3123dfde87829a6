"""Service layer and JSON handlers used by the HTTP front end."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

from langroid.agent.task import Task

from . import citations, housekeeping, operators
from .agents import LibrarianAgent, ScratchpadAgent
from .decision_log import DecisionLog
from .embeddings import SpanEmbeddingCache, make_model
from .jobs import JobQueue
from .models import Citation, OffsetMap
from .offsets import OffsetMapCache
from .pruning import HistoryCompactor, drop_stale_chunks
from .settings import AppSettings, TemplateRegistry, chat_config, doc_config
from .store import SnapshotStore, SpanBuffer
from .summarization import RollingSummarizer

Response = Tuple[int, Dict[str, Any]]


def highlight(buffer: SpanBuffer, omap: OffsetMap, first: int, last: int) -> str:
    span = buffer.get(omap.ref.span_id)
    start, end = omap.bounds[first][0], omap.bounds[last][1]
    return span.content[:start] + "<mark>" + span.content[start:end] + "</mark>" + span.content[end:]


class ContextService:
    def __init__(self, settings: AppSettings) -> None:
        self.settings = settings
        self.templates = TemplateRegistry()
        self.buffer = SpanBuffer()
        self.offsets = OffsetMapCache(self.buffer)
        self.log = DecisionLog(Path(settings.decision_log_path))
        self.snapshots = SnapshotStore(Path(settings.decision_log_path).with_name("spans.jsonl"))
        self.jobs = JobQueue()
        self.assistant = ScratchpadAgent(chat_config(settings, self.templates), self.buffer, self.offsets)
        self.librarian = LibrarianAgent(doc_config(settings))
        self.embeddings = SpanEmbeddingCache(make_model(settings.embed_model))
        self.compactor = HistoryCompactor(self.assistant, self.log, settings.history_token_budget)
        self.summarizer = RollingSummarizer(self.assistant, self.buffer, self.templates)
        self.task = Task(self.assistant, name="Assistant", interactive=False, single_round=False)
        self.citations: List[Citation] = []

    def ask(self, question: str) -> Dict[str, Any]:
        question = operators.clean_user_input(question)
        result = self.task.run(question, turns=6)
        answer = result.content if result is not None else ""
        if self.compactor.over_budget():
            self.compactor.compact()
        live = self.buffer.live()
        if result is not None:
            self.citations = citations.build_citations(result, live)
        return {
            "answer": answer,
            "citations": [citations.render_citation(self.buffer, c) for c in self.citations],
        }

    def summarize_recent(self, n: int = 8) -> str:
        recent = [s for s in self.buffer.live() if s.produced_by == "ingest"][-n:]
        return self.summarizer.update(recent).content

    def redact(self) -> int:
        n = operators.redact_history(self.assistant)
        self.buffer.mirror(self.assistant)
        return n

    async def retire_sources(self, sources: List[str]) -> int:
        return await drop_stale_chunks(self.librarian, self.log, sources)

    def maintenance(self) -> Dict[str, int]:
        swept = housekeeping.sweep_tombstones(self.buffer, self.settings.tombstone_grace_s)
        purged = self.jobs.purge_finished(self.settings.job_retention_s)
        self.snapshots.capture(self.buffer.all_spans())
        self.snapshots.flush()
        return {"spans": len(swept), "jobs": purged}


# --- HTTP handlers -----------------------------------------------------------

def handle_ask(svc: ContextService, payload: Dict[str, Any]) -> Response:
    q = str(payload.get("question", "")).strip()
    if not q:
        return 400, {"error": "question is required"}
    return 200, svc.ask(q)


def handle_highlight(svc: ContextService, payload: Dict[str, Any]) -> Response:
    span = svc.buffer.find(payload["span_id"])
    if span is None:
        return 404, {"error": "no such span"}
    omap = svc.offsets.map_for(span)
    return 200, {"html": highlight(svc.buffer, omap, int(payload["first"]), int(payload["last"]))}


def handle_patch_spans(svc: ContextService, payload: Dict[str, Any]) -> Response:
    patches = [{"span_id": p["id"], "content": p["text"]} for p in payload.get("items", [])]
    n = asyncio.run(svc.snapshots.apply_patch(patches))
    return 200, {"patched": n}


def handle_rename(svc: ContextService, payload: Dict[str, Any]) -> Response:
    body = {"id": payload["id"], "text": payload.get("text", "").strip()[:120]}
    body["text"] = body["text"] or "Untitled"
    svc.jobs.submit("rename-session", body, priority=9)
    return 202, {"accepted": body}


def encode(resp: Response) -> Tuple[int, bytes]:
    status, body = resp
    return status, json.dumps(body).encode("utf-8")
