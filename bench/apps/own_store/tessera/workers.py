"""asyncio workers that run next to the agent loop: compression, persistence, pruning, evidence."""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Awaitable, Callable, Protocol, Sequence

from tessera.artifacts import ArtifactRegistry
from tessera.buffer import ContextBuffer
from tessera.caches import TokenizeFn
from tessera.decisions import DecisionLog
from tessera.records import Span
from tessera.store import SpanStore

log = logging.getLogger(__name__)


class AsyncCompressor(Protocol):
    async def acompress(self, text: str, ratio: float = ...) -> str: ...


class RelevanceScorer(Protocol):
    async def score(self, spans: Sequence[Span], query: str) -> list[tuple[Span, float]]: ...


async def compress_worker(
    q: "asyncio.Queue[str]", buf: ContextBuffer, llm: AsyncCompressor, *, ratio: float = 0.5
) -> None:
    while True:
        sid = await q.get()
        try:
            s = buf.get(sid)
            if s is None or s.is_tombstone:
                continue
            short = await llm.acompress(s.content, ratio=ratio)
            if len(short) >= len(s.content):
                continue
            s.content = short
            s.version += 1
            s.produced_by = "rewrite:compress"
        except Exception:
            log.exception("compress failed for %s", sid)
        finally:
            q.task_done()


async def persist_worker(q: "asyncio.Queue[Span]", store: SpanStore) -> None:
    while True:
        span = await q.get()
        try:
            existing = await asyncio.to_thread(store.load, span.span_id)
            if existing is None:
                await asyncio.to_thread(store.save, span)
            elif existing.content != span.content:
                await asyncio.to_thread(store.set_content, span.span_id, span.content)
        finally:
            q.task_done()


async def prune_worker(
    buf: ContextBuffer,
    store: SpanStore,
    decisions: DecisionLog,
    scorer: RelevanceScorer,
    query: str,
    *,
    threshold: float = 0.15,
) -> list[str]:
    scored = await scorer.score(buf.live(), query)
    doomed = [s for s, score in scored if score < threshold and s.role != "system"]
    for s in doomed:
        buf.drop(s.span_id)
        await asyncio.to_thread(store.delete, s.span_id)
    if doomed:
        await asyncio.to_thread(
            decisions.append,
            {
                "edit_id": uuid.uuid4().hex,
                "op": "prune:relevance",
                "span_ids": [s.span_id for s in doomed],
                "rationale": f"relevance below {threshold} for query {query[:80]!r}",
            },
        )
    return [s.span_id for s in doomed]


async def answer_with_evidence(
    buf: ContextBuffer,
    registry: ArtifactRegistry,
    hits: Sequence[tuple[str, int, int]],
    answer: Callable[[list[str]], Awaitable[str]],
) -> str:
    snippets: list[str] = []
    for span_id, first, last in hits:
        span = buf.get(span_id)
        om = registry.latest_offsets(span_id)
        if span is None or om is None:
            continue
        start, end = om.token_spans[first][0], om.token_spans[last][1]
        snippets.append(span.content[start:end])
    return await answer(snippets)


def _tokens_memo(tokenize: TokenizeFn) -> Callable[[Span], int]:
    memo: dict[str, int] = {}

    def n(span: Span) -> int:
        key = span.span_id
        if key not in memo:
            memo[key] = len(tokenize(span.content))
        return memo[key]

    return n


async def budget_watcher(
    buf: ContextBuffer,
    tokenize: TokenizeFn,
    compress_q: "asyncio.Queue[str]",
    *,
    interval_s: float = 2.0,
    high_water: float = 0.8,
) -> None:
    n = _tokens_memo(tokenize)
    while True:
        live = buf.live()
        used = sum(n(s) for s in live)
        if used > high_water * buf.token_budget:
            for s in sorted(live, key=n, reverse=True)[:3]:
                if s.role != "system":
                    compress_q.put_nowait(s.span_id)
        await asyncio.sleep(interval_s)
