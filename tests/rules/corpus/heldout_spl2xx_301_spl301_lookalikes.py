# rules: SPL301
"""Summaries derived from sources, tracked chains, and unrelated look-alikes."""
from __future__ import annotations

import bz2
import gzip
import logging
import lzma
import uuid
import zlib
from typing import Any

logger = logging.getLogger(__name__)


def summarize(*texts: str, **kwargs: Any) -> str:
    return " ".join(texts)[:200]


def condense(text: str, **kwargs: Any) -> str:
    return text[:100]


def compress(data: str) -> str:
    return data[:50]


def from_sources(messages: list[str]) -> str:
    return summarize(*messages)


def archive(summary: str) -> bytes:
    return zlib.compress(summary.encode())


def archive_gz(summary_bytes: bytes) -> bytes:
    return gzip.compress(summary_bytes)


def archive_xz(summary: bytes) -> bytes:
    return lzma.compress(summary)


def archive_bz(summary: bytes) -> bytes:
    return bz2.compress(summary)


def _format_summary(summary: str) -> str:
    return f"## Summary\n{summary}"


def render(summary: str) -> str:
    return _format_summary(summary)


def print_summary(summary: str) -> None:
    print(summary)


def report(summary: str) -> None:
    print_summary(summary)
    logger.info("summary: %s", summary)


def summary_stats(summary: str) -> dict[str, int]:
    return {"chars": len(summary)}


def stats(summary: str) -> dict[str, int]:
    return summary_stats(summary)


class TrackedMemory:
    def __init__(self, llm: Any) -> None:
        self.llm = llm
        self.summary = ""
        self.summary_id = ""
        self.decision_log: list[dict[str, Any]] = []
        self.summary_chain: list[tuple[str, str]] = []

    def with_parents(self, new: list[Any]) -> None:
        self.summary = self.llm.summarize(self.summary, new, parents=[self.summary_id, *(m.id for m in new)])

    def with_lineage(self, prev_summary: str, turns: list[str], lineage: list[str]) -> str:
        return summarize(prev_summary, *turns, lineage=lineage)

    def with_sources(self, msgs: list[Any]) -> None:
        self.summary = self.llm.summarize(self.summary, msgs, source_ids=[m.id for m in msgs])

    def with_derived_from(self, running_summary: str) -> str:
        return condense(running_summary, derived_from=self.summary_id)

    def with_chain(self, existing_summary: str, chain: list[str]) -> str:
        return summarize(existing_summary, chain=chain)

    def with_parent(self, summary: str) -> str:
        return summarize(summary, parent=self.summary_id)

    def with_sources_kw(self, summary: str, docs: list[str]) -> str:
        return summarize(summary, *docs, sources=docs)

    def logged(self, msgs: list[str]) -> None:
        old_id = self.summary_id
        self.summary = self.llm.summarize(self.summary, msgs)
        self.summary_id = uuid.uuid4().hex
        self.decision_log.append({"op": "resummarize", "from": old_id, "to": self.summary_id})

    def chained(self, msgs: list[str]) -> None:
        old_id = self.summary_id
        self.summary = self.llm.summarize(self.summary, msgs)
        self.summary_id = uuid.uuid4().hex
        self.summary_chain.append((old_id, self.summary_id))


def fresh_each_time(conversations: list[Any]) -> list[str]:
    out = []
    for conv in conversations:
        summary = summarize(*conv.messages)
        out.append(summary)
    return out


def from_messages(memory: Any) -> None:
    memory.summary = summarize(*memory.messages)


def keras_summary(model: Any) -> None:
    summary = model.summary()
    print(summary)


def prompt_template(summary_prompt: str, msgs: list[str]) -> str:
    return summarize(summary_prompt, *msgs)


def limit(messages: list[str]) -> str:
    return summarize(*messages, max_summary_tokens=200)


def pick_model(llm: Any, messages: list[str], model: str) -> str:
    return llm.create_summary(messages, summary_model=model)


def shrink_window(context_window: str) -> str:
    return compress(context_window)


def two_independent(a: list[str], b: list[str]) -> tuple[str, str]:
    first = summarize(*a)
    second = summarize(*b)
    return first, second


def once(msgs: list[str]) -> str:
    summary = summarize(*msgs)
    return summary


def per_document(docs: list[Any]) -> list[str]:
    results = []
    for doc in docs:
        s = condense(doc.text)
        results.append(s)
    return results


def compress_image(thumbnail: bytes) -> bytes:
    return zlib.compress(thumbnail, 9)


def document_from_text(document: str) -> str:
    return summarize(text=document)
