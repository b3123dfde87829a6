"""Application service: one Strands agent per support case, plus the compaction pipeline."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from strands import Agent
from strands.models import BedrockModel
from strands.types.content import Messages

from .buffer import ContextBuffer
from .citations import StaleCitation, resolve_checked, to_citations_block
from .conversation import BudgetedConversationManager
from .db import CustomerRepo
from .decision_log import DecisionLog
from .embeddings import EmbeddingIndex
from .hooks import ContextBookkeeping
from .housekeeping import Job, JobQueue, collect_tombstones, purge_stale_notes
from .memory_store import CaseMemoryStore, build_memory_manager
from .models import CitationRecord
from .offsets import OffsetIndex, sentence_bounds
from .operators import compress_chunks, condense_note, redact_pii, shorten_tool_output
from .pruning import prune_by_relevance, prune_resolved_threads
from .session import CaseSessionManager
from .settings import Settings, settings
from .summarization import RollingSummarizer
from .tools import cite_context, pin_note, revise_note, supersede_note


@dataclass
class CaseRuntime:
    case_id: str
    agent: Agent
    store: ContextBuffer
    embeddings: EmbeddingIndex
    offsets: OffsetIndex
    summarizer: RollingSummarizer
    archive: Messages = field(default_factory=list)
    citations: list[CitationRecord] = field(default_factory=list)


class CaseService:
    def __init__(self, cfg: Settings = settings) -> None:
        self.cfg = cfg
        self.log = DecisionLog(cfg.decision_log_path)
        self.customers = CustomerRepo(cfg.db_path)
        self.memory = CaseMemoryStore()
        self.jobs = JobQueue()
        self.cases: dict[str, CaseRuntime] = {}
        self.jobs.register("housekeeping", lambda payload: self.housekeeping(payload["case_id"]))

    def open_case(self, case_id: str) -> CaseRuntime:
        if case_id in self.cases:
            return self.cases[case_id]
        agent = Agent(
            model=BedrockModel(model_id=self.cfg.model_id, region_name=self.cfg.region),
            system_prompt=self.cfg.prompts["system"].text,
            tools=[pin_note, revise_note, supersede_note, cite_context],
            conversation_manager=BudgetedConversationManager(
                self.log, self.cfg.token_budget, window_size=self.cfg.window_size
            ),
            session_manager=CaseSessionManager(case_id, self.cfg.session_dir),
            memory_manager=build_memory_manager(self.memory),
            agent_id=f"case-{case_id}",
            name="casebook",
            callback_handler=None,
        )
        store = ContextBuffer(agent)
        embeddings = EmbeddingIndex()
        offsets = OffsetIndex(store)
        agent.hooks.add_hook(ContextBookkeeping(store, embeddings, offsets))
        runtime = CaseRuntime(case_id, agent, store, embeddings, offsets, RollingSummarizer(agent))
        self.cases[case_id] = runtime
        return runtime

    async def ask(self, case_id: str, question: str) -> dict[str, Any]:
        rt = self.open_case(case_id)
        result = await rt.agent.invoke_async(question, invocation_state={"casebook_store": rt.store})
        for message in rt.agent.messages[-4:]:
            if message["role"] == "user":
                redact_pii(message)
            shorten_tool_output(message)
        await self.compact(rt, question)
        return self.answer_payload(rt, str(result))

    async def compact(self, rt: CaseRuntime, focus: str) -> None:
        prune_resolved_threads(rt.store, self.log)
        if len(rt.agent.messages) > self.cfg.window_size:
            prune_by_relevance(rt.store, rt.embeddings, self.log, focus, keep=self.cfg.window_size // 2)
        compress_chunks(rt.store)
        for note in rt.store.notes.values():
            if note.live and len(note.text) > 600:
                first_two = [note.text[s:e] for s, e in sentence_bounds(note.text)[:2]]
                condense_note(note, " ".join(part.strip() for part in first_two))
        overflow = rt.agent.messages[2 : -self.cfg.preserve_recent]
        if len(overflow) > self.cfg.window_size // 2:
            summary = await rt.summarizer.refresh(overflow)
            rt.store.retire(overflow)
            rt.archive.extend(overflow)
            rt.agent.messages[2 : -self.cfg.preserve_recent] = [summary]
        self.memory.consolidate()
        self.jobs.submit(Job(run_at=0, id=f"hk-{rt.case_id}", name="housekeeping", payload={"case_id": rt.case_id}))

    def answer_payload(self, rt: CaseRuntime, answer: str) -> dict[str, Any]:
        quotes, stale = [], []
        for record in rt.citations:
            try:
                quotes.append({"span": record.span_id, "quote": resolve_checked(rt.store, record)})
            except StaleCitation as exc:
                stale.append({"span": record.span_id, "reason": str(exc)})
        block = to_citations_block([r for r in rt.citations if r.span_id not in {s["span"] for s in stale}], answer)
        return {"id": rt.case_id, "text": answer, "quotes": quotes, "stale": stale, "citations": block}

    def housekeeping(self, case_id: str) -> dict[str, list[str]]:
        rt = self.cases[case_id]
        return {
            "notes": purge_stale_notes(rt.store),
            "tombstones": collect_tombstones(rt.store, self.log),
        }

    def notify_webhook(self, url: str, payload: dict[str, Any], attempts: int = 3) -> int:
        body = dict(payload)
        for attempt in range(attempts):
            req = urllib.request.Request(
                url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
            )
            try:
                with urllib.request.urlopen(req, timeout=10) as resp:
                    return resp.status
            except urllib.error.HTTPError as err:
                if err.code != 413 or attempt == attempts - 1:
                    raise
                body["text"] = body["text"][: len(body["text"]) // 2] + " …"
        return 0


def run(case_id: str, question: str) -> dict[str, Any]:
    return asyncio.run(CaseService().ask(case_id, question))
