"""Wraps a document embedder with a cache keyed by story."""

from __future__ import annotations

import hashlib
from typing import Dict, List

from haystack import Document, component
from haystack.components.embedders import SentenceTransformersDocumentEmbedder


@component
class StoryCachedEmbedder:
    def __init__(self, model: str = "sentence-transformers/all-MiniLM-L6-v2") -> None:
        self.inner = SentenceTransformersDocumentEmbedder(model=model)
        self.cache: Dict[str, List[float]] = {}

    def warm_up(self) -> None:
        self.inner.warm_up()

    @component.output_types(documents=List[Document])
    def run(self, documents: List[Document]):
        missing = []
        for doc in documents:
            story = doc.meta.get("story_id", doc.id)
            if story in self.cache:
                doc.embedding = self.cache[story]
            else:
                missing.append(doc)
        if missing:
            embedded = self.inner.run(documents=missing)["documents"]
            for doc in embedded:
                self.cache[doc.meta.get("story_id", doc.id)] = doc.embedding
        return {"documents": documents}


@component
class ContentCachedEmbedder:
    def __init__(self, inner: SentenceTransformersDocumentEmbedder) -> None:
        self.inner = inner
        self.cache: Dict[str, List[float]] = {}

    @component.output_types(documents=List[Document])
    def run(self, documents: List[Document]):
        for doc in documents:
            key = hashlib.sha256((doc.content or "").encode()).hexdigest()
            if key not in self.cache:
                self.cache[key] = self.inner.run(documents=[doc])["documents"][0].embedding
            doc.embedding = self.cache[key]
        return {"documents": documents}
