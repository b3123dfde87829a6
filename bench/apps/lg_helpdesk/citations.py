from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.documents import Document
from langgraph.store.base import BaseStore

from .kb_index import KnowledgeBase
from .memory_store import LongTermMemory, memories_ns
from .records import GroundingRef, StaleGroundingError
from .state import CitationRef, MemoryRef

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


def build_citations(answer: str, docs: Sequence[Document], *, min_len: int = 24) -> list[CitationRef]:
    """Find answer sentences that quote a retrieved article and record where they came from."""
    refs: list[CitationRef] = []
    for sentence in (s.strip() for s in _SENTENCE.findall(answer)):
        if len(sentence) < min_len:
            continue
        probe = sentence.rstrip(".!?")
        for doc in docs:
            start = doc.page_content.find(probe)
            if start >= 0:
                refs.append(
                    CitationRef(
                        article_id=doc.id,
                        title=doc.metadata.get("title", ""),
                        start=start,
                        end=start + len(probe),
                    )
                )
                break
    return refs


def render_sources(citations: Sequence[CitationRef], kb: KnowledgeBase) -> str:
    if not citations:
        return ""
    ids = list(dict.fromkeys(c["article_id"] for c in citations))
    by_id = {d.id: d for d in kb.vectorstore.get_by_ids(ids)}
    lines = []
    for n, c in enumerate(citations, 1):
        doc = by_id.get(c["article_id"])
        if doc is None:
            continue
        quote = doc.page_content[c["start"] : c["end"]]
        url = doc.metadata.get("url") or ""
        lines.append(f"[{n}] {c['title']}: “{quote}” {url}".rstrip())
    return "\n".join(lines)


async def aquote_memories(
    store: BaseStore, customer_id: str, refs: Sequence[MemoryRef]
) -> list[str]:
    ns = memories_ns(customer_id)
    quotes = []
    for ref in refs:
        item = await store.aget(ns, ref["memory_id"])
        if item is None:
            continue
        quotes.append(item.value["text"][ref["start"] : ref["end"]])
    return quotes


class GroundingResolver:
    def __init__(self, memory: LongTermMemory) -> None:
        self._memory = memory
        self._snippets: dict[tuple[str, int, str, int, int], str] = {}

    def resolve(self, customer_id: str, ref: GroundingRef) -> str:
        key = (ref.source_id, ref.version, ref.content_hash, ref.start, ref.end)
        if key in self._snippets:
            return self._snippets[key]
        record = self._memory.get(customer_id, ref.source_id)
        if record is None:
            raise StaleGroundingError(f"memory {ref.source_id} is gone")
        if record.version != ref.version or record.content_hash != ref.content_hash:
            raise StaleGroundingError(
                f"memory {ref.source_id} is v{record.version}, reference was made at v{ref.version}"
            )
        if ref.end > len(record.text):
            raise StaleGroundingError(f"range {ref.start}:{ref.end} outside memory {ref.source_id}")
        snippet = record.text[ref.start : ref.end]
        self._snippets[key] = snippet
        return snippet
