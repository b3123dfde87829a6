"""The research flow: ingest -> prepare -> (compact) -> research -> housekeeping."""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
from pathlib import Path
from typing import Any
from uuid import uuid4

from crewai import LLM
from crewai.flow.flow import Flow, listen, or_, router, start
from crewai.knowledge.source.string_knowledge_source import StringKnowledgeSource
from pydantic import PrivateAttr

from crew_flow.callbacks import make_step_callback, make_task_callback, make_token_meter
from crew_flow.citations import Citation, cite, render_citations
from crew_flow.console import RunRepository, StatusPanel
from crew_flow.crews import notes_crew, research_crew
from crew_flow.decisions import DecisionLog
from crew_flow.embeddings import SpanEmbeddingCache, VersionedEmbeddingIndex, make_embedder
from crew_flow.knowledge import briefing_source, handbook_sources
from crew_flow.memory_store import SpanArchive
from crew_flow.operators import compress_tool_output, normalize_all, redact_in_buffer
from crew_flow.settings import AppSettings, load_settings
from crew_flow.spans import ContextBuffer, ContextSpan
from crew_flow.state import ResearchState
from crew_flow.summarize import resummarize_with_chain, summarize_from_sources, tighten_summary

log = logging.getLogger(__name__)

_SPAN_REF = re.compile(r"\bsp_[0-9a-f]{12}\b")
SUPERSEDED = "SUPERSEDED:"


class ResearchFlow(Flow[ResearchState]):
    _settings: AppSettings = PrivateAttr()
    _buffer: ContextBuffer = PrivateAttr(default_factory=ContextBuffer)
    _decisions: DecisionLog = PrivateAttr(default_factory=DecisionLog)
    _archive: SpanArchive = PrivateAttr()
    _ranker: SpanEmbeddingCache = PrivateAttr()
    _dedup_index: VersionedEmbeddingIndex = PrivateAttr()
    _briefing: StringKnowledgeSource | None = PrivateAttr(default=None)
    _panel: StatusPanel = PrivateAttr(default_factory=StatusPanel)
    _runs: RunRepository = PrivateAttr()
    _run_id: str = PrivateAttr(default_factory=lambda: uuid4().hex[:12])
    _citations: list[Citation] = PrivateAttr(default_factory=list)
    _llm: LLM = PrivateAttr()

    def __init__(self, settings: AppSettings | None = None, briefing: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._settings = settings or load_settings()
        self._archive = SpanArchive(
            self._decisions, path=self._settings.memory_path, llm=self._settings.model,
            embedder=self._settings.embedder,
        )
        embedder = make_embedder(self._settings.embedder)
        self._ranker = SpanEmbeddingCache(embedder)
        self._dedup_index = VersionedEmbeddingIndex(embedder)
        self._briefing = briefing_source(briefing) if briefing else None
        self._runs = RunRepository()
        self._llm = LLM(model=self._settings.model, temperature=0.0)

    @property
    def panel(self) -> StatusPanel:
        return self._panel

    @start()
    def ingest(self) -> int:
        self._runs.create(self._run_id, self.state.question)
        self._panel.add("phase", "Phase")
        self._panel.add("budget", "Context")
        self._panel.set_text("phase", "ingest")
        self.state.turn += 1
        self._buffer.add(ContextSpan(kind="user", content=self.state.question, turn=self.state.turn))
        for rec in self._archive.recall(self.state.question, limit=8):
            self._buffer.add(
                ContextSpan(
                    kind="retrieval",
                    content=rec.content,
                    produced_by=f"archive:{rec.id}",
                    turn=self.state.turn,
                )
            )
        for span in self.state.spans:
            self._buffer.add(span)
        return len(self._buffer)

    @listen(ingest)
    def prepare(self) -> int:
        self._panel.set_text("phase", "prepare")
        redacted = redact_in_buffer(self._buffer)
        normalized = normalize_all(self._buffer)
        compressed = sum(
            compress_tool_output(s, limit=self._settings.fetch_max_chars // 3)
            for s in self._buffer.live()
            if s.kind == "tool"
        )
        for a, b in self._dedup_index.near_duplicates(self._buffer.live()):
            if a in self._buffer and b in self._buffer:
                self._buffer.derive_rewrite(b, f"(duplicate of {a})", op="dedup")
        log.info("prepare: %d redacted, %d normalized, %d compressed", len(redacted), normalized, compressed)
        return self._buffer.total_chars()

    @router(prepare)
    def budget_check(self) -> str:
        used = self._buffer.total_chars()
        self._panel.set_text("budget", f"{used}/{self.state.char_budget} chars")
        self.state.route = "compact" if used > self.state.char_budget else "research"
        return self.state.route

    @listen("compact")
    async def compress_history(self) -> int:
        self._panel.set_text("phase", "compact")
        older = [s for s in self._buffer.live() if s.turn < self.state.turn and len(s.content) > 1_500]
        crew = notes_crew(self._settings)
        results = await asyncio.gather(
            *(crew.copy().kickoff_async(inputs={"notes": s.content, "words": 120}) for s in older)
        )
        for span, out in zip(older, results):
            self._buffer.add(span.model_copy(update={"content": out.raw, "produced_by": "rewrite:compress"}))
        return len(older)

    @listen(compress_history)
    def evict_old_tool_output(self) -> int:
        overflow = self._buffer.total_chars() - self.state.char_budget
        if overflow <= 0:
            return 0
        victims: list[ContextSpan] = []
        for span in sorted((s for s in self._buffer.live() if s.kind == "tool"), key=lambda s: s.turn):
            if overflow <= 0:
                break
            victims.append(span)
            overflow -= len(span.content)
        entry = self._decisions.record(
            "prune",
            rationale=f"context over budget by {overflow + sum(len(v.content) for v in victims)} chars; "
            "evicting oldest tool output",
            spans=victims,
        )
        for span in victims:
            self._archive.archive(span, importance=0.3)
            self._buffer.tombstone(span.id)
        log.info("%s: evicted %d tool spans", entry.edit_id, len(victims))
        return len(victims)

    @listen(evict_old_tool_output)
    def prune_superseded(self) -> int:
        notices = [s for s in self._buffer.live() if s.kind == "note" and s.content.startswith(SUPERSEDED)]
        if not notices:
            return 0
        targets = {sid for n in notices for sid in _SPAN_REF.findall(n.content)}
        removed = self._buffer.drop([*targets, *(n.id for n in notices)])
        self._decisions.record(
            "prune",
            rationale=f"{len(targets)} spans superseded by later findings",
            spans=removed,
        )
        return len(removed)

    @listen(prune_superseded)
    async def refresh_notes(self) -> str:
        if not self.state.running_summary:
            return ""
        out = await notes_crew(self._settings).kickoff_async(
            inputs={"notes": self.state.running_summary, "words": 200}
        )
        self.state.running_summary = out.raw.strip()
        return self.state.running_summary

    @listen(or_("research", refresh_notes))
    def research(self) -> str:
        self._panel.set_text("phase", "research")
        meter = make_token_meter(self._buffer)
        sources = [self._briefing] if self._briefing else []
        sources += handbook_sources(Path(self._settings.knowledge_dir))
        crew, evidence = research_crew(
            self._settings,
            self._buffer,
            knowledge=sources,
            memory=self._archive.memory.scope("/crew"),
            step_callback=make_step_callback(self.state, meter),
            task_callback=make_task_callback(self._buffer),
        )
        ranked = self._ranker.rank(self.state.question, self._buffer.live(), k=12)
        evidence.index(ranked)
        context = "\n\n".join(f"<{s.kind} id={s.id}>\n{s.content}" for s in ranked)
        result = crew.kickoff(
            inputs={"question": self.state.question, "notes": self.state.running_summary, "context": context}
        )
        self.state.answer = result.raw
        for sid in dict.fromkeys(_SPAN_REF.findall(result.raw)):
            span = self._buffer.find(sid)
            if span is not None:
                c = cite(span, span.content.split(".")[0])
                if c is not None:
                    self._citations.append(c)
        summary = summarize_from_sources(self._buffer, self._llm, [s.id for s in ranked])
        self.state.summaries.append(summary)
        self.state.running_summary = (self.state.running_summary + "\n\n" + summary.text).strip()
        return self.state.answer

    @listen(research)
    def housekeeping(self) -> str:
        self._panel.set_text("phase", "housekeeping")
        latest = self.state.summaries[-1] if self.state.summaries else None
        if latest is not None and len(latest.text) > 2_000:
            resummarize_with_chain(self.state, self._llm, latest)
        tighten_summary(self.state, self._llm)
        self._buffer.vacuum(max_age_s=1_800)
        self._archive.sweep_tombstones(keep_days=self._settings.tombstone_keep_days)
        self.state.spans = self._buffer.snapshot()
        self.state.decisions = list(self._decisions)
        appendix = render_citations(self._buffer, self._citations)
        self._runs.update_status(self._run_id, "done", answer=self.state.answer)
        return f"{self.state.answer}\n\nSources:\n{appendix}" if appendix else self.state.answer


def main() -> None:
    parser = argparse.ArgumentParser(prog="crew-flow")
    parser.add_argument("question")
    parser.add_argument("--briefing", type=Path)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    briefing = args.briefing.read_text(encoding="utf-8") if args.briefing else ""
    flow = ResearchFlow(briefing=briefing)
    with flow.panel:
        print(flow.kickoff(inputs={"question": args.question}))


if __name__ == "__main__":
    main()
