"""Service layer: request/response models and the handlers behind the HTTP API."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from pydantic import BaseModel, Field, field_validator

from .citations import Citation, cite_pinned, excerpt, resolve, StaleCitationError
from .decision_log import DecisionLog
from .embedding_cache import CachedEmbeddings
from .ingest import ingest_directory
from .memory import SessionStore, TokenMeter, trim_with_record
from .pruning import HolderRegistry, compact_unheld, evict_expired, retire_chunks
from .retrievers import IndexRetriever
from .settings import RagSettings, update_profile
from .storage import Database, JobQueue
from .summary import ConversationSummarizer, SummaryBook
from .vector_index import ChunkIndex


class AskRequest(BaseModel):
    session_id: str
    question: str
    profile: str | None = None

    @field_validator("question")
    @classmethod
    def _clean(cls, v: str) -> str:
        return " ".join(v.split())


class CitationOut(BaseModel):
    chunk_id: str
    label: str
    quote: str
    version: int | None = None


class AskResponse(BaseModel):
    answer: str
    citations: list[CitationOut] = Field(default_factory=list)
    summary: str = ""


class EditChunkRequest(BaseModel):
    id: str
    text: str
    reason: str = ""
    editor: str = "anonymous"


class RetireRequest(BaseModel):
    ids: list[str]
    reason: str


@dataclass
class SessionState:
    book: SummaryBook = field(default_factory=SummaryBook)
    quick_summary: str = ""
    open_citations: list[Citation] = field(default_factory=list)
    turns_since_summary: int = 0


class RagService:
    def __init__(self, settings: RagSettings, llm: BaseChatModel) -> None:
        self.settings = settings
        self.llm = llm
        self.index = ChunkIndex(CachedEmbeddings(DeterministicFakeEmbedding(size=settings.embedding_size)))
        self.log = DecisionLog(settings.decision_log_path)
        self.sessions = SessionStore()
        self.state: dict[str, SessionState] = {}
        self.holders = HolderRegistry()
        self.meter = TokenMeter()
        self.summarizer = ConversationSummarizer(llm)
        self.db = Database(settings.database_path)
        self.jobs = JobQueue(self.db)

    def _state(self, session_id: str) -> SessionState:
        return self.state.setdefault(session_id, SessionState())

    def ingest(self, root: str) -> dict[str, Any]:
        ids = ingest_directory(Path(root), self.index, self.settings)
        return {"indexed": len(ids)}

    def ask(self, req: AskRequest) -> AskResponse:
        state = self._state(req.session_id)
        history = self.sessions.history(req.session_id)
        profile = self.settings.profile(req.profile)
        retriever = IndexRetriever(index=self.index, k=profile.top_k, reorder=profile.reorder_long_context)
        docs = retriever.invoke(req.question)
        context = "\n\n".join(f"[{i}] {d.page_content}" for i, d in enumerate(docs))
        prompt = [
            *history.messages,
            HumanMessage(content=f"Context:\n{context}\n\nQuestion: {req.question}"),
        ]
        answer = self.llm.invoke(prompt)
        self.sessions.append(req.session_id, HumanMessage(content=req.question))
        self.sessions.append(req.session_id, AIMessage(content=answer.text))

        citations = [c for c in (cite_pinned(d, d.page_content[:120]) for d in docs) if c]
        self.holders.hold(c.chunk_id for c in citations)
        state.open_citations.extend(citations)

        state.turns_since_summary += 2
        if state.turns_since_summary >= self.settings.summary_every:
            recent = history.messages[-state.turns_since_summary :]
            self.summarizer.extend(state.book, recent)
            state.turns_since_summary = 0
        trim_with_record(history, self.settings.history_window, self.log)

        current = state.book.current()
        return AskResponse(
            answer=answer.text,
            citations=[self._render(c) for c in citations],
            summary=current.text if current else "",
        )

    def quick_summary(self, session_id: str) -> str:
        state = self._state(session_id)
        history = self.sessions.history(session_id)
        state.quick_summary = self.summarizer.roll(state.quick_summary, history.messages[-4:])
        return state.quick_summary

    def _render(self, c: Citation) -> CitationOut:
        try:
            quote = resolve(c, self.index.get)
        except StaleCitationError:
            quote = ""
        return CitationOut(chunk_id=c.chunk_id, label=c.label, quote=quote, version=c.version)

    def footnotes(self, session_id: str) -> list[str]:
        return [excerpt(c, self.index.get) for c in self._state(session_id).open_citations]

    def close_answer(self, session_id: str) -> None:
        state = self._state(session_id)
        self.holders.release(c.chunk_id for c in state.open_citations)
        state.open_citations.clear()

    def edit_chunk(self, req: EditChunkRequest) -> dict[str, Any]:
        req.text = req.text.strip()
        req.reason = req.reason.strip() or "editorial fix"
        self.log.record("edit", [req.id], rationale=req.reason, evidence={"editor": req.editor})
        derived = self.index.fork(req.id, req.text, op="edit")
        return {"id": derived.id, "version": derived.metadata["version"]}

    def admin_patch(self, req: EditChunkRequest) -> dict[str, Any]:
        self.index.patch_text(req.id, req.text)
        return {"id": req.id}

    async def nightly(self) -> dict[str, Any]:
        evicted = await evict_expired(self.index, self.log, self.settings.chunk_max_age_s)
        removed = compact_unheld(self.index, self.log, self.holders, self.settings.tombstone_ttl_s)
        return {"evicted": evicted, "removed": removed}

    def retire(self, req: RetireRequest) -> dict[str, Any]:
        retire_chunks(self.index, self.log, req.ids, req.reason)
        return {"retired": req.ids}

    def compact(self) -> dict[str, Any]:
        removed = compact_unheld(self.index, self.log, self.holders, self.settings.tombstone_ttl_s)
        return {"removed": removed}

    def set_profile(self, profile_id: str, changes: dict[str, Any]) -> dict[str, Any]:
        p = update_profile(self.settings, profile_id, **changes)
        return {"id": p.id, "top_k": p.top_k}


def create_app(service: RagService):  # pragma: no cover - needs the "api" extra
    from fastapi import FastAPI

    app = FastAPI(title="lc-rag")
    app.post("/ask", response_model=AskResponse)(service.ask)
    app.post("/chunks/edit")(service.edit_chunk)
    app.post("/chunks/retire")(service.retire)
    app.post("/admin/compact")(service.compact)
    app.post("/admin/chunks/patch")(service.admin_patch)
    app.get("/sessions/{session_id}/footnotes")(service.footnotes)
    app.post("/sessions/{session_id}/summary")(service.quick_summary)
    return app
