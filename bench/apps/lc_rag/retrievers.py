"""Retrievers used by the QA chain."""

from __future__ import annotations

from typing import Any

from langchain_community.document_transformers import LongContextReorder
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field

from .records import content_hash
from .vector_index import ChunkIndex


class IndexRetriever(BaseRetriever):
    """Top-k similarity search over the live chunks, reordered for long context."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    index: ChunkIndex
    k: int = 4
    reorder: bool = True

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        docs = self.index.search(query, k=self.k)
        if self.reorder:
            docs = list(LongContextReorder().transform_documents(docs))
        return docs


class ExcerptRetriever(BaseRetriever):
    """Returns only a window around the best-matching sentence of each hit."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    base: BaseRetriever
    window: int = 320

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        hits = self.base.invoke(query, config={"callbacks": run_manager.get_child()})
        terms = [t.lower() for t in query.split() if len(t) > 3]
        for doc in hits:
            text = doc.page_content
            pos = min((text.lower().find(t) for t in terms if t in text.lower()), default=0)
            lo = max(0, pos - self.window // 2)
            doc.page_content = text[lo : lo + self.window]
        return hits


class WindowRetriever(BaseRetriever):
    """Like ``ExcerptRetriever`` but returns new documents with shifted offsets."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    base: BaseRetriever
    window: int = 320

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        hits = self.base.invoke(query, config={"callbacks": run_manager.get_child()})
        terms = [t.lower() for t in query.split() if len(t) > 3]
        out = []
        for doc in hits:
            text = doc.page_content
            pos = min((text.lower().find(t) for t in terms if t in text.lower()), default=0)
            lo = max(0, pos - self.window // 2)
            piece = text[lo : lo + self.window]
            meta = dict(doc.metadata)
            meta["start_index"] = int(meta.get("start_index", 0)) + lo
            meta["content_hash"] = content_hash(piece)
            meta["window_of"] = {"id": doc.id, "version": meta.get("version"), "offset": lo}
            out.append(Document(id=f"{doc.id}#w{lo}", page_content=piece, metadata=meta))
        return out


class HighlightRetriever(BaseRetriever):
    """Adds ``highlight`` metadata from offsets computed when the chunk was reviewed."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    base: BaseRetriever
    highlights: dict[str, dict[str, Any]] = Field(default_factory=dict)

    def remember(self, doc: Document, start: int, end: int) -> None:
        self.highlights[doc.id] = {
            "start": start,
            "end": end,
            "version": doc.metadata.get("version"),
            "content_hash": doc.metadata.get("content_hash"),
        }

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        hits = self.base.invoke(query, config={"callbacks": run_manager.get_child()})
        out = []
        for doc in hits:
            mark = self.highlights.get(doc.id)
            if mark:
                snippet = doc.page_content[mark["start"] : mark["end"]]
                doc = Document(id=doc.id, page_content=doc.page_content, metadata={**doc.metadata, "highlight": snippet})
            out.append(doc)
        return out


class CheckedHighlightRetriever(HighlightRetriever):
    """Highlights only when the stored offsets were made from the current text."""

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        hits = self.base.invoke(query, config={"callbacks": run_manager.get_child()})
        out = []
        for doc in hits:
            mark = self.highlights.get(doc.id)
            fresh = (
                mark is not None
                and mark["version"] == doc.metadata.get("version")
                and mark["content_hash"] == content_hash(doc.page_content)
                and mark["end"] <= len(doc.page_content)
            )
            if fresh:
                snippet = doc.page_content[mark["start"] : mark["end"]]
                doc = Document(id=doc.id, page_content=doc.page_content, metadata={**doc.metadata, "highlight": snippet})
            elif mark is not None:
                self.highlights.pop(doc.id, None)
            out.append(doc)
        return out
