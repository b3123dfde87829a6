"""Store-level compaction: folding case notes and tool output into summary spans."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from pydantic_ai import Agent

from .decisions import DecisionLog
from .spans import ContextStore, Span, new_span_id

case_summarizer = Agent(
    "openai:gpt-4o-mini",
    instructions=(
        "You write the running case summary. State facts with the ticket or note they came from. "
        "Do not speculate about root cause unless a note says so."
    ),
    name="case-summarizer",
    retries=2,
)


def _as_prompt(spans: Sequence[Span]) -> str:
    return "\n\n".join(f"<{s.kind} id={s.span_id}>\n{s.content}\n</{s.kind}>" for s in spans)


async def condense_summaries(store: ContextStore, log: DecisionLog, *, max_summaries: int = 3) -> Span | None:
    summaries = sorted(store.live("summary"), key=lambda s: s.created_at)
    if len(summaries) <= max_summaries:
        return None
    res = await case_summarizer.run(_as_prompt(summaries))
    merged = store.add(Span(new_span_id("su"), res.output, kind="summary", produced_by="compaction"))
    log.record(
        edit_id=f"cmp-{uuid.uuid4().hex[:8]}",
        action="condense",
        span_ids=[s.span_id for s in summaries],
        rationale=f"{len(summaries)} summaries folded into {merged.span_id}",
    )
    for s in summaries:
        store.tombstone(s.span_id)
    return merged


async def summarize_from_sources(store: ContextStore, log: DecisionLog, source_ids: Sequence[str]) -> Span:
    sources = [store.get(sid) for sid in source_ids]
    sources = [s for s in sources if s.kind != "summary"]
    if not sources:
        raise ValueError("no source spans to summarize")
    res = await case_summarizer.run(_as_prompt(sources))
    out = store.add(
        Span(
            new_span_id("su"),
            res.output,
            kind="summary",
            produced_by="summarize",
            parents=tuple(s.span_id for s in sources),
        )
    )
    log.record(
        edit_id=f"sum-{uuid.uuid4().hex[:8]}",
        action="summarize",
        span_ids=[s.span_id for s in sources],
        rationale=f"sources summarized into {out.span_id}",
        evidence=[s.content_hash for s in sources],
    )
    return out


def _roots(store: ContextStore, span: Span) -> set[str]:
    if span.kind != "summary" or not span.parents:
        return {span.span_id}
    roots: set[str] = set()
    for pid in span.parents:
        parent = store.find(pid)
        roots |= _roots(store, parent) if parent is not None else {pid}
    return roots


async def merge_summaries_with_lineage(store: ContextStore, log: DecisionLog, summary_ids: Sequence[str]) -> Span:
    summaries = [store.get(sid) for sid in summary_ids]
    roots = sorted(set().union(*(_roots(store, s) for s in summaries)))
    missing = [r for r in roots if r not in store]
    if missing:
        raise LookupError(f"summary chain broken, sources gone: {missing}")
    res = await case_summarizer.run(_as_prompt(summaries))
    merged = store.add(
        Span(
            new_span_id("su"),
            res.output,
            kind="summary",
            produced_by="summarize:merge",
            parents=tuple(s.span_id for s in summaries),
        )
    )
    log.record(
        edit_id=f"mrg-{uuid.uuid4().hex[:8]}",
        action="merge_summaries",
        span_ids=[s.span_id for s in summaries],
        rationale=f"merged into {merged.span_id}; roots {', '.join(roots)}",
        evidence=roots,
    )
    return merged
