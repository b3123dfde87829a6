"""Ingestion pipeline: raw help-center pages -> cleaned, split, stamped, embedded documents."""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable

from haystack import Document, Pipeline
from haystack.components.preprocessors import DocumentCleaner, DocumentSplitter
from haystack.components.writers import DocumentWriter
from haystack.document_stores.in_memory import InMemoryDocumentStore
from haystack.document_stores.types import DuplicatePolicy

from .components import HashingEmbedder, SpanStamper
from .config import AssistantSettings

_NAV_CRUFT = re.compile(r"^(Skip to content|Was this article helpful\?.*)$", re.MULTILINE)


def build_ingest_pipeline(store: InMemoryDocumentStore, settings: AssistantSettings) -> Pipeline:
    pipe = Pipeline()
    pipe.add_component("cleaner", DocumentCleaner(remove_repeated_substrings=False))
    pipe.add_component(
        "splitter",
        DocumentSplitter(split_by="word", split_length=settings.split_length, split_overlap=settings.split_overlap),
    )
    pipe.add_component("stamper", SpanStamper(origin="ingest"))
    pipe.add_component("embedder", HashingEmbedder())
    pipe.add_component("writer", DocumentWriter(document_store=store, policy=DuplicatePolicy.SKIP))
    pipe.connect("cleaner.documents", "splitter.documents")
    pipe.connect("splitter.documents", "stamper.documents")
    pipe.connect("stamper.documents", "embedder.documents")
    pipe.connect("embedder.documents", "writer.documents")
    return pipe


def build_documents(pages: Iterable[dict]) -> list[Document]:
    docs: list[Document] = []
    for page in pages:
        body = page.get("body") or ""
        body = unicodedata.normalize("NFKC", body)
        body = _NAV_CRUFT.sub("", body).replace("\r\n", "\n")
        if not body.strip():
            continue
        docs.append(
            Document(
                content=body,
                meta={"url": page.get("url"), "title": page.get("title", ""), "locale": page.get("locale", "en")},
            )
        )
    return docs


def ingest_pages(pipe: Pipeline, pages: Iterable[dict]) -> int:
    result = pipe.run({"cleaner": {"documents": build_documents(pages)}})
    return result["writer"]["documents_written"]
