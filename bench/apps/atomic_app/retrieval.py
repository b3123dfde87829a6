"""Retrieval index over spans, with per-span embeddings and sentence offsets."""

from __future__ import annotations

from .embeddings import cosine, embed_text
from .models import IndexedSpan, SpanBody, digest
from .operators import compress_indexed
from .store import SpanHistory
from .textutil import scrub_pii, sentence_offsets


class RetrievalIndex:
    def __init__(self, history: SpanHistory) -> None:
        self.history = history
        self.entries: dict[str, IndexedSpan] = {}

    def index(self, body: SpanBody) -> IndexedSpan:
        entry = IndexedSpan(
            span_id=body.span_id,
            text=body.text,
            version=body.version,
            content_hash=body.content_hash,
            embedding=embed_text(body.text),
            sentence_offsets=sentence_offsets(body.text),
        )
        self.entries[body.span_id] = entry
        self.history.hold(body.span_id, "retrieval")
        return entry

    def sync(self) -> int:
        n = 0
        for msg in self.history.spans():
            body = msg.content
            if not isinstance(body, SpanBody) or body.tombstoned:
                continue
            cur = self.entries.get(body.span_id)
            if cur is None or (cur.version, cur.content_hash) != (body.version, body.content_hash):
                self.index(body)
                n += 1
        return n

    def scrub(self) -> None:
        for entry in self.entries.values():
            cleaned = scrub_pii(entry.text)
            if cleaned != entry.text:
                entry.text = cleaned
                entry.version += 1
                entry.content_hash = digest(cleaned)

    def shrink(self, limit: int = 400) -> None:
        for span_id in list(self.entries):
            self.entries[span_id] = compress_indexed(self.entries[span_id], limit)

    def search(self, query: str, k: int = 5) -> list[tuple[float, IndexedSpan]]:
        q = embed_text(query)
        scored = [(cosine(q, e.embedding or embed_text(e.text)), e) for e in self.entries.values()]
        scored.sort(key=lambda t: t[0], reverse=True)
        return scored[:k]

    def best_sentence(self, entry: IndexedSpan, query: str) -> str:
        q = embed_text(query)
        best = max(entry.sentence_offsets, key=lambda se: cosine(q, embed_text(entry.text[se[0]:se[1]])), default=None)
        if best is None:
            return ""
        return entry.text[best[0]:best[1]]
