"""Top-level assistant: wires the store, pipelines, memory, summary and retention together."""

from __future__ import annotations

import asyncio
from typing import Any

from haystack import Document, Pipeline
from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
from haystack.dataclasses import ChatMessage
from haystack.document_stores.in_memory import InMemoryDocumentStore

from .citations import Citation, PinnedCitation, make_citation, pin_citation, resolve_many
from .components import HashingEmbedder
from .config import AssistantSettings, load_settings
from .decision_log import DecisionLog
from .embed_cache import VersionedEmbeddingCache, rerank
from .ingest import build_ingest_pipeline, ingest_pages
from .kb_editor import KnowledgeBaseEditor
from .memory import ChatMemory
from .retention import HolderRegistry, RetentionManager
from .summarizer import RollingSummary, persist_summary
from .web import ChatPanel, to_response


async def hydrate_citations(store: InMemoryDocumentStore, cits: list[Citation]) -> list[dict[str, Any]]:
    async def fetch(cit: Citation) -> dict[str, Any]:
        docs = await asyncio.to_thread(
            store.filter_documents, {"field": "id", "operator": "==", "value": cit.doc_id}
        )
        quote = docs[0].content[cit.start : cit.end] if docs else ""
        return {"doc_id": cit.doc_id, "title": cit.title, "quote": quote}

    return list(await asyncio.gather(*(fetch(c) for c in cits)))


class HayAssistant:
    def __init__(self, settings: AssistantSettings | None = None, session_id: str = "local") -> None:
        self.settings = settings or load_settings()
        self.session_id = session_id
        self.store = InMemoryDocumentStore()
        self.log = DecisionLog()
        self.holders = HolderRegistry()
        self.memory = ChatMemory(self.log)
        self.summary = RollingSummary()
        self.editor = KnowledgeBaseEditor(self.store, self.log)
        self.retention = RetentionManager(self.store, self.log, self.holders)
        self.embedder = HashingEmbedder()
        self.vectors = VersionedEmbeddingCache(self.embedder.embed_text)
        self.panel = ChatPanel(id=f"panel-{session_id}")
        self._ingest = build_ingest_pipeline(self.store, self.settings)
        self._retrieval = Pipeline()
        self._retrieval.add_component("retriever", InMemoryBM25Retriever(document_store=self.store, top_k=8))
        self._quick_cites: list[Citation] = []
        self._pins: list[PinnedCitation] = []
        self.memory.add(ChatMessage.from_system("You are a support assistant. Cite the help center."))

    def load(self, pages: list[dict]) -> int:
        return ingest_pages(self._ingest, pages)

    def _retrieve(self, query: str) -> list[Document]:
        docs = self._retrieval.run({"retriever": {"query": query}})["retriever"]["documents"]
        return rerank(self.embedder.embed_text(query), docs, self.vectors)[:3]

    def _compose(self, query: str, docs: list[Document]) -> tuple[str, list[PinnedCitation]]:
        pins: list[PinnedCitation] = []
        lines = []
        for doc in docs:
            first = (doc.content or "").split(".")[0].strip()
            if not first:
                continue
            pin = pin_citation(doc, first)
            if pin is not None:
                pins.append(pin)
                lines.append(f"{first}. [{len(pins)}]")
        return ("\n".join(lines) or "I could not find that in the help center."), pins

    async def ask(self, query: str) -> dict[str, Any]:
        self.panel.show_typing()
        self.memory.add(ChatMessage.from_user(query))
        docs = self._retrieve(query)
        answer, pins = self._compose(query, docs)
        self.holders.hold(p.doc_id for p in pins)
        self._pins.extend(pins)
        self._quick_cites.extend(c for c in (make_citation(d, (d.content or "")[:60]) for d in docs) if c)
        reply = self.memory.add(ChatMessage.from_assistant(answer, meta={"pins": [p.doc_id for p in pins]}))
        quotes = await resolve_many(self.store, pins)
        citations = [{"doc_id": p.doc_id, "title": p.title, "quote": q} for p, q in zip(pins, quotes)]
        self._maintain()
        self.panel.show_reply(answer)
        return to_response(reply, citations)

    async def recent_sources(self) -> list[dict[str, Any]]:
        return await hydrate_citations(self.store, self._quick_cites[-10:])

    def _maintain(self) -> None:
        if self.memory.total_tokens() > self.settings.summary_trigger_tokens:
            dropped = self.memory.trim_logged(self.settings.max_context_tokens // 2)
            if dropped:
                summary = self.summary.roll(dropped)
                persist_summary(self.store, self.session_id, summary)
        self.retention.collect_unheld_tombstones(self.settings.tombstone_ttl_days)

    def release_answer(self, pins: list[PinnedCitation]) -> None:
        self.holders.release(p.doc_id for p in pins)
