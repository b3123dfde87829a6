"""Ingest workflow on the LangGraph functional API (@entrypoint / @task)."""

from __future__ import annotations

from typing import Any, TypedDict

from langchain_core.documents import Document
from langgraph.cache.memory import InMemoryCache
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_stream_writer
from langgraph.func import entrypoint, task
from langgraph.store.base import BaseStore
from langgraph.types import CachePolicy

from .buffer import SpanBuffer
from .indexes import make_embeddings, make_store
from .models import SpanRecord
from .operators import redact_span
from .settings import load_settings

SETTINGS = load_settings()
EMBEDDINGS = make_embeddings(SETTINGS)
STORE = make_store(SETTINGS, EMBEDDINGS)


class SpanPayload(TypedDict):
    span_id: str
    version: int
    content_hash: str
    content: str


class IngestInput(TypedDict):
    thread_id: str
    documents: list[Document]


def _payload(rec: SpanRecord) -> SpanPayload:
    return {
        "span_id": rec.span_id,
        "version": rec.version,
        "content_hash": rec.content_hash,
        "content": rec.content,
    }


@task(cache_policy=CachePolicy(key_func=lambda span: span["span_id"]))
def embed_for_rerank(span: SpanPayload) -> list[float]:
    return EMBEDDINGS.embed_query(span["content"])


@task(
    cache_policy=CachePolicy(
        key_func=lambda span: f"{span['span_id']}:{span['version']}:{span['content_hash']}"
    )
)
def embed_for_index(span: SpanPayload) -> list[float]:
    return EMBEDDINGS.embed_query(span["content"])


@task
def ingest_document(thread_id: str, doc: Document) -> SpanPayload:
    buffer = SpanBuffer(STORE, thread_id, SETTINGS)
    rec = buffer.add(doc.page_content, produced_by="ingest")
    redact_span(buffer, rec.span_id)
    fresh = buffer.get(rec.span_id) or rec
    return _payload(fresh)


@entrypoint(checkpointer=InMemorySaver(), store=STORE, cache=InMemoryCache())
def ingest(inputs: IngestInput, *, previous: Any = None, store: BaseStore) -> entrypoint.final:
    writer = get_stream_writer()
    seen: list[str] = list((previous or {}).get("span_ids", []))
    futures = [ingest_document(inputs["thread_id"], d) for d in inputs["documents"]]
    payloads = [f.result() for f in futures]
    rerank = [embed_for_rerank(p) for p in payloads]
    indexed = [embed_for_index(p) for p in payloads]
    for p, r, i in zip(payloads, rerank, indexed):
        r.result()
        i.result()
        writer({"ingested": p["span_id"], "version": p["version"]})
    seen.extend(p["span_id"] for p in payloads)
    return entrypoint.final(value=payloads, save={"span_ids": seen})
