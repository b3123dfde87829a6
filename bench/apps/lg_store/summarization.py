"""Summaries over store-backed spans."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from .buffer import SpanBuffer
from .models import SpanRecord

SYSTEM = SystemMessage(
    content="Summarise the numbered passages. Keep every identifier, date and decision."
)


def default_llm() -> BaseChatModel:
    return FakeListChatModel(responses=["(summary)"])


def summarize_text(llm: BaseChatModel, passages: Sequence[str]) -> str:
    body = "\n\n".join(f"[{i + 1}] {p}" for i, p in enumerate(passages))
    reply = llm.invoke([SYSTEM, HumanMessage(content=body)])
    return reply.text if hasattr(reply, "text") else str(reply.content)


def summarize_sources(buffer: SpanBuffer, llm: BaseChatModel, span_ids: Sequence[str]) -> SpanRecord:
    sources = [rec for sid in span_ids if (rec := buffer.get(sid)) is not None and rec.kind == "source"]
    if not sources:
        raise ValueError("no source spans to summarise")
    text = summarize_text(llm, [s.content for s in sources])
    return buffer.add(
        text,
        produced_by="summarize",
        kind="summary",
        source_ids=[s.span_id for s in sources],
    )


def _roots(buffer: SpanBuffer, rec: SpanRecord) -> list[str]:
    if rec.kind == "source":
        return [rec.span_id]
    roots: list[str] = []
    for sid in rec.source_ids:
        child = buffer.get(sid)
        roots.extend(_roots(buffer, child) if child is not None else [sid])
    return roots


def roll_up(buffer: SpanBuffer, llm: BaseChatModel, summary_ids: Sequence[str]) -> SpanRecord:
    summaries = [rec for sid in summary_ids if (rec := buffer.get(sid)) is not None]
    root_ids = sorted({r for s in summaries for r in _roots(buffer, s)})
    missing = [r for r in root_ids if buffer.get(r) is None]
    if missing:
        raise ValueError(f"roll-up would lose its roots: {missing}")
    text = summarize_text(llm, [s.content for s in summaries])
    rolled = buffer.add(
        text,
        produced_by="summarize:rollup",
        kind="summary",
        source_ids=[s.span_id for s in summaries],
    )
    buffer.store.put(
        ("lineage", buffer.thread_id),
        rolled.span_id,
        {"parents": list(summary_ids), "roots": root_ids},
        index=False,
    )
    return rolled
