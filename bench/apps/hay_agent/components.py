from __future__ import annotations

from haystack import Document, component
from haystack.document_stores.in_memory import InMemoryDocumentStore
from haystack.document_stores.types import DuplicatePolicy

from .models import content_hash


@component
class SpanRewriter:
    def __init__(self, store: InMemoryDocumentStore) -> None:
        self.store = store

    @component.output_types(documents=list[Document])
    def run(self, documents: list[Document], suffix: str = "") -> dict:
        for doc in documents:
            doc.content = (doc.content or "") + suffix
        self.store.write_documents(documents, policy=DuplicatePolicy.OVERWRITE)
        return {"documents": documents}


@component
class VersionedRewriter:
    def __init__(self, store: InMemoryDocumentStore) -> None:
        self.store = store

    @component.output_types(documents=list[Document])
    def run(self, documents: list[Document], suffix: str = "") -> dict:
        out = []
        for doc in documents:
            text = (doc.content or "") + suffix
            meta = {**doc.meta, "version": doc.meta.get("version", 1) + 1, "content_hash": content_hash(text)}
            out.append(Document(id=doc.id, content=text, meta=meta))
        self.store.write_documents(out, policy=DuplicatePolicy.OVERWRITE)
        return {"documents": out}


@component
class DocumentDigest:
    @component.output_types(digests=dict)
    def run(self, documents: list[Document]) -> dict:
        return {"digests": {d.id: content_hash(d.content or "") for d in documents}}
