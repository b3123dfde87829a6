"""Semantic retrieval of context spans as langchain ``Document`` chunks."""

from __future__ import annotations

from langchain_core.documents import Document

from .buffer import SpanBuffer
from .models import StaleSpanError, content_digest
from .operators import canonical_query, compress_documents


def retrieve(buffer: SpanBuffer, query: str, k: int = 6) -> list[Document]:
    hits = buffer.store.search(
        buffer.ns, query=canonical_query(query), filter={"tombstoned": False}, limit=k
    )
    return [
        Document(
            id=h.key,
            page_content=h.value["content"],
            metadata={
                "score": h.score,
                "version": h.value.get("version", 0),
                "content_hash": h.value.get("content_hash", ""),
                "sentence_offsets": h.value.get("sentence_offsets", []),
            },
        )
        for h in hits
    ]


def retrieve_compact(buffer: SpanBuffer, query: str, k: int = 6) -> list[Document]:
    return compress_documents(retrieve(buffer, query, k))


def highlight(doc: Document, sentence_no: int) -> str:
    if content_digest(doc.page_content) != doc.metadata.get("content_hash"):
        raise StaleSpanError(f"document {doc.id} no longer matches its offsets")
    start, end = doc.metadata["sentence_offsets"][sentence_no]
    return doc.page_content[start:end]
