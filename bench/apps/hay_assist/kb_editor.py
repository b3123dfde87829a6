"""Editorial operations on the stored knowledge base."""

from __future__ import annotations

import logging
import re
from typing import Iterable

from haystack import Document
from haystack.components.preprocessors import DocumentCleaner
from haystack.document_stores.in_memory import InMemoryDocumentStore
from haystack.document_stores.types import DuplicatePolicy

from .decision_log import DecisionLog
from .spans import (
    HASH_KEY,
    ORIGIN_KEY,
    TOMBSTONE_KEY,
    VERSION_KEY,
    content_hash,
    new_span_id,
    now,
    version_of,
)

logger = logging.getLogger(__name__)


class KnowledgeBaseEditor:
    def __init__(self, store: InMemoryDocumentStore, log: DecisionLog) -> None:
        self.store = store
        self.log = log

    def _fetch(self, doc_id: str) -> Document | None:
        found = self.store.filter_documents({"field": "id", "operator": "==", "value": doc_id})
        return found[0] if found else None

    def redact(self, doc_id: str, patterns: Iterable[str], replacement: str = "[redacted]") -> bool:
        article = self._fetch(doc_id)
        if article is None:
            return False
        body = article.content or ""
        for pattern in patterns:
            body = re.sub(pattern, replacement, body)
        if body == article.content:
            return False
        target = article
        target.content = body
        target.meta[HASH_KEY] = content_hash(body)
        target.embedding = None
        self.store.write_documents([target], policy=DuplicatePolicy.OVERWRITE)
        self.log.record("redact", [doc_id], "matched redaction patterns")
        return True

    def redact_versioned(self, doc_id: str, patterns: Iterable[str], replacement: str = "[redacted]") -> bool:
        article = self._fetch(doc_id)
        if article is None:
            return False
        body = article.content or ""
        for pattern in patterns:
            body = re.sub(pattern, replacement, body)
        if body == article.content:
            return False
        previous = {"version": version_of(article), "hash": article.meta.get(HASH_KEY)}
        article.content = body
        article.meta[VERSION_KEY] = version_of(article) + 1
        article.meta[HASH_KEY] = content_hash(body)
        article.meta[ORIGIN_KEY] = "rewrite:redact"
        article.embedding = None
        self.store.write_documents([article], policy=DuplicatePolicy.OVERWRITE)
        self.log.record("redact", [doc_id], "matched redaction patterns", evidence=previous)
        return True

    def apply_glossary(self, replacements: dict[str, str]) -> int:
        touched = []
        for doc in self.store.filter_documents({"field": "meta.locale", "operator": "==", "value": "en"}):
            new_text = doc.content or ""
            for old, new in replacements.items():
                new_text = new_text.replace(old, new)
            if new_text == doc.content:
                continue
            doc.content = new_text
            doc.meta[VERSION_KEY] = version_of(doc) + 1
            doc.meta[ORIGIN_KEY] = "rewrite:glossary"
            doc.embedding = None
            touched.append(doc)
        if touched:
            self.store.write_documents(touched, policy=DuplicatePolicy.OVERWRITE)
            self.log.record("glossary", [d.id for d in touched], f"renamed terms: {sorted(replacements)}")
        return len(touched)

    def reclean(self, doc_ids: list[str]) -> int:
        docs = self.store.filter_documents({"field": "id", "operator": "in", "value": doc_ids})
        cleaner = DocumentCleaner(keep_id=True, remove_repeated_substrings=True, strip_whitespaces=True)
        cleaned = cleaner.run(documents=docs)["documents"]
        self.store.write_documents(cleaned, policy=DuplicatePolicy.OVERWRITE)
        self.log.record("reclean", [d.id for d in cleaned], "header/footer repetition removed")
        return len(cleaned)

    def rewrite_as_new(self, doc_id: str, new_text: str, op: str) -> Document | None:
        old = self._fetch(doc_id)
        if old is None:
            return None
        successor = Document(
            id=new_span_id("doc"),
            content=new_text,
            meta={
                **{k: v for k, v in old.meta.items() if k in ("url", "title", "locale")},
                VERSION_KEY: 0,
                HASH_KEY: content_hash(new_text),
                ORIGIN_KEY: f"rewrite:{op}",
                "derived_from": {"id": old.id, "version": version_of(old), "hash": old.meta.get(HASH_KEY)},
            },
        )
        self.log.record(op, [old.id, successor.id], f"{op} produced successor span")
        self.store.write_documents([successor], policy=DuplicatePolicy.FAIL)
        self.store.update_by_filter(
            filters={"field": "id", "operator": "==", "value": old.id},
            meta={TOMBSTONE_KEY: now(), "superseded_by": successor.id},
        )
        return successor
