"""Application service and a small JSON request dispatcher."""

from __future__ import annotations

import json
import uuid
from dataclasses import asdict
from typing import Any

import dspy
from dspy.experimental import Document

from .buffer import ConversationBuffer
from .callbacks import TraceRecorder, TypographyNormalizer
from .citations import cited_spans, render_footnotes, resolve
from .decision_log import DecisionLog
from .housekeeping import HolderRegistry, JobQueue, collect_tombstones, purge_expired_tombstones
from .index import PassageIndex, PassageVectorCache
from .models import StaleSpanError
from .offsets import OffsetIndex
from .index import embed_note
from .operators import (
    Compressor,
    Redactor,
    aredact_notes,
    compress_passage,
    normalize_passages,
    redact_documents,
)
from .persistence import FeedbackRepo
from .program import CitedRAG, Ingest
from .pruning import ContextCompactor, TokenBudget
from .settings import AppSettings, configure_dspy
from .store import PassageStore
from .summarize import ShrinkToBudget, SourceSummary


class RagService:
    def __init__(self, settings: AppSettings) -> None:
        self.settings = settings
        self.trace = TraceRecorder()
        embedder = configure_dspy(settings, callbacks=[self.trace, TypographyNormalizer()])
        self.store = PassageStore()
        self.log = DecisionLog(settings.decision_log_path)
        self.holders = HolderRegistry()
        self.buffer = ConversationBuffer()
        self.index = PassageIndex(self.store, embedder, k=settings.top_k * 2)
        self.offsets = OffsetIndex(self.store)
        self.rag = CitedRAG(self.index, PassageVectorCache(embedder), k=settings.top_k)
        self.ingest = Ingest(self.store)
        self.budget = TokenBudget(self.store, settings.token_budget)
        self.compactor = ContextCompactor(self.store, self.log, self.budget)
        self.summary = SourceSummary(self.store, settings.summary_budget_chars)
        self.shrink = ShrinkToBudget(settings.summary_budget_chars)
        self.shelf: dict[str, Document] = {}
        self.jobs = JobQueue()
        self.feedback = FeedbackRepo(settings.db_path)
        self._answers: dict[str, dspy.Prediction] = {}

    def add_texts(self, texts: list[str], titles: list[str] | None = None) -> list[str]:
        prediction = self.ingest(texts=texts, titles=titles)
        normalize_passages(prediction.passages)
        return [p.pid for p in prediction.passages]

    def ask(self, question: str) -> dict[str, Any]:
        prediction = self.rag(question=question, history=self.buffer.history)
        answer_id = uuid.uuid4().hex[:12]
        self._answers[answer_id] = prediction
        for anchor in prediction.anchors:
            self.holders.hold(anchor.pid, f"answer:{answer_id}")
        self.buffer.append_turn(question, prediction.answer, turn_id=answer_id)
        self.buffer.shorten_answers(max_chars=800)
        return {"answer_id": answer_id, "answer": prediction.answer, "citations": self.citations(answer_id)}

    def citations(self, answer_id: str) -> list[dict[str, Any]]:
        out = []
        for anchor in self._answers[answer_id].anchors:
            try:
                out.append({"pid": anchor.pid, "quote": resolve(anchor, self.store), "stale": False})
            except StaleSpanError:
                out.append({"pid": anchor.pid, "quote": anchor.cited_text, "stale": True})
        return out

    def footnotes(self, answer_id: str) -> list[str]:
        prediction = self._answers[answer_id]
        return render_footnotes(cited_spans(prediction, prediction.passages), self.store)

    def highlights(self, answer_id: str) -> list[dict[str, Any]]:
        out = []
        for h in self._answers[answer_id].highlights:
            text = self.store.get(h["pid"]).text
            out.append({"pid": h["pid"], "label": h["label"], "fragment": text[h["start"] : h["end"]]})
        return out

    def patch_passage(self, pid: str, text: str) -> dict[str, Any]:
        passage = self.store.patch_text(pid, text)
        return {"pid": passage.pid, "version": passage.version}

    def compress(self, pid: str) -> dict[str, Any]:
        new = compress_passage(self.store, pid, Compressor())
        return {"pid": new.pid, "replaces": pid}

    def redact_shelf(self) -> list[str]:
        return redact_documents(self.shelf, Redactor())

    def add_note(self, text: str) -> str:
        note = embed_note(self.buffer.add_note(text), self.index.embedder)
        return note.note_id

    def extend_note(self, note_id: str, extra: str) -> int:
        return self.buffer.merge_note(note_id, extra).version

    async def redact_notes(self) -> int:
        return await aredact_notes(self.buffer.notes, Redactor())

    def compact(self, relevance: dict[str, float]) -> dict[str, Any]:
        superseded = self.compactor.apply_supersession()
        tombstoned = self.compactor.prune_to_budget(relevance)
        return {"superseded": superseded, "tombstoned": tombstoned}

    def planner_brief(self) -> str:
        pids = [p.pid for p in self.store]
        record = self.summary(pids=pids).record
        for key in record.source_keys:
            self.holders.hold(key.pid, f"summary:{record.summary_id}")
        return self.shrink(text=record.text).summary

    def housekeeping(self, holders_aware: bool = True) -> list[str]:
        ttl = self.settings.tombstone_ttl_seconds
        if holders_aware:
            return collect_tombstones(self.store, self.holders, ttl)
        return purge_expired_tombstones(self.store, ttl)


def _clean_request(payload: dict[str, Any]) -> dict[str, Any]:
    payload = dict(payload)
    payload["id"] = payload.get("id") or uuid.uuid4().hex[:12]
    payload["text"] = str(payload.get("text", "")).strip()
    return payload


def dispatch(service: RagService, method: str, path: str, body: bytes = b"") -> tuple[int, dict[str, Any]]:
    payload = _clean_request(json.loads(body or b"{}"))
    parts = [p for p in path.split("/") if p]
    if method == "POST" and parts == ["ask"]:
        return 200, service.ask(payload["text"])
    if method == "POST" and parts == ["passages"]:
        return 201, {"pids": service.add_texts([payload["text"]], [payload.get("title", "")])}
    if method == "PATCH" and len(parts) == 2 and parts[0] == "passages":
        return 200, service.patch_passage(parts[1], payload["text"])
    if method == "GET" and len(parts) == 3 and parts[0] == "answers" and parts[2] == "highlights":
        return 200, {"highlights": service.highlights(parts[1])}
    if method == "POST" and len(parts) == 2 and parts[0] == "feedback":
        row = service.feedback.add(parts[1], payload["text"], int(payload.get("rating", 0)))
        return 201, asdict(row)
    if method == "PUT" and len(parts) == 2 and parts[0] == "feedback":
        row = service.feedback.update_text(int(parts[1]), payload["text"])
        return (200, asdict(row)) if row else (404, {"error": "not found"})
    return 404, {"error": f"no route for {method} {path}"}
