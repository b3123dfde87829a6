from __future__ import annotations

import html
import math
import re
from collections.abc import Iterable, Sequence

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import InMemoryVectorStore

from .records import digest

_HEADING = re.compile(r"^(#{1,3})\s+(.+)$", re.MULTILINE)
_WS = re.compile(r"[ \t\u00a0]+")
_TAGS = re.compile(r"<[^>]+>")


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def load_articles(rows: Iterable[dict]) -> list[Document]:
    """Turn help-center export rows into Documents with section offsets."""
    docs: list[Document] = []
    for row in rows:
        body = row["body"]
        sections = []
        heads = list(_HEADING.finditer(body))
        for i, m in enumerate(heads):
            end = heads[i + 1].start() if i + 1 < len(heads) else len(body)
            sections.append({"title": m.group(2).strip(), "start": m.start(), "end": end})
        docs.append(
            Document(
                id=str(row["id"]),
                page_content=body,
                metadata={
                    "title": row.get("title", ""),
                    "locale": row.get("locale", "en-us"),
                    "url": row.get("html_url"),
                    "sections": sections,
                    "token_count": len(body) // 4,
                },
            )
        )
    return docs


def clean_text(text: str) -> str:
    text = html.unescape(_TAGS.sub("", text))
    return "\n".join(_WS.sub(" ", line).strip() for line in text.splitlines()).strip()


def clean_articles(docs: list[Document]) -> list[Document]:
    for doc in docs:
        doc.page_content = clean_text(doc.page_content)
    return docs


class KnowledgeBase:
    def __init__(self, embeddings: Embeddings) -> None:
        self._embeddings = embeddings
        self.vectorstore = InMemoryVectorStore(embeddings)
        self._vectors: dict[str, list[float]] = {}

    def ingest(self, rows: Iterable[dict]) -> list[str]:
        docs = clean_articles(load_articles(rows))
        for doc in docs:
            doc.metadata["version"] = 1
            doc.metadata["content_hash"] = digest(doc.page_content)
        return self.vectorstore.add_documents(docs)

    def search(self, query: str, *, k: int = 4, locale: str | None = None) -> list[Document]:
        if locale is None:
            return self.vectorstore.similarity_search(query, k=k)
        return self.vectorstore.similarity_search(
            query, k=k, filter=lambda d: d.metadata.get("locale") == locale
        )

    def _doc_vector(self, doc: Document) -> list[float]:
        vec = self._vectors.get(doc.id)
        if vec is None:
            vec = self._embeddings.embed_documents([doc.page_content])[0]
            self._vectors[doc.id] = vec
        return vec

    def rerank(self, query: str, docs: list[Document], *, top: int = 3) -> list[Document]:
        q = self._embeddings.embed_query(query)
        scored = sorted(docs, key=lambda d: _cosine(q, self._doc_vector(d)), reverse=True)
        return scored[:top]

    def apply_hotfix(self, article_id: str, old: str, new: str) -> bool:
        """Patch a phrase in a published article without a full re-sync."""
        entry = self.vectorstore.store.get(article_id)
        if entry is None or old not in entry["text"]:
            return False
        entry["text"] = entry["text"].replace(old, new)
        meta = entry["metadata"]
        meta["version"] = meta.get("version", 1) + 1
        meta["content_hash"] = digest(entry["text"])
        return True

    def replace_article(self, article_id: str, body: str, **metadata) -> Document:
        current = self.vectorstore.get_by_ids([article_id])
        prev = current[0].metadata if current else {}
        doc = load_articles([{"id": article_id, "body": clean_text(body), **metadata}])[0]
        doc.metadata["version"] = prev.get("version", 0) + 1
        doc.metadata["content_hash"] = digest(doc.page_content)
        self.vectorstore.add_documents([doc], ids=[article_id])
        self._vectors.pop(article_id, None)
        return doc
