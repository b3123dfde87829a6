"""Rolling and windowed summaries of the conversation."""

from __future__ import annotations

import uuid
from typing import Sequence

import attrs

from tessera.buffer import ContextBuffer
from tessera.decisions import DecisionLog
from tessera.operators import Summarizer
from tessera.records import Span, new_span_id


@attrs.define
class RollingState:
    text: str = ""
    upto: int = 0
    passes: int = 0


def roll_summary(buf: ContextBuffer, state: RollingState, llm: Summarizer, *, keep_last: int = 6) -> RollingState:
    live = buf.live()
    older = live[state.upto : max(state.upto, len(live) - keep_last)]
    if not older:
        return state
    prompt = "\n\n".join([state.text, *(s.content for s in older)]) if state.text else "\n\n".join(
        s.content for s in older
    )
    state.text = llm.summarize(prompt, max_tokens=400)
    state.upto += len(older)
    state.passes += 1
    return state


def summarize_window(
    buf: ContextBuffer, span_ids: Sequence[str], llm: Summarizer, *, max_tokens: int = 400
) -> Span:
    sources: list[Span] = []
    for sid in span_ids:
        span = buf.require(sid)
        if span.is_summary:
            sources.extend(buf.sources_of(span))
        else:
            sources.append(span)
    seen: set[str] = set()
    uniq = [s for s in sources if not (s.span_id in seen or seen.add(s.span_id))]
    text = llm.summarize("\n\n".join(s.content for s in uniq), max_tokens=max_tokens)
    return buf.add(
        Span(
            span_id=new_span_id("sum"),
            content=text,
            role="assistant",
            produced_by="rewrite:summarize",
            parents=tuple(s.span_id for s in uniq),
        )
    )


def resummarize(buf: ContextBuffer, summary: Span, llm: Summarizer, log: DecisionLog, *, max_tokens: int = 200) -> Span:
    roots = [s.span_id for s in buf.sources_of(summary)]
    shorter = llm.summarize(summary.content, max_tokens=max_tokens)
    child = Span(
        span_id=new_span_id("sum"),
        content=shorter,
        role=summary.role,
        produced_by="rewrite:summarize:2",
        parents=(summary.span_id,),
    )
    log.append(
        {
            "edit_id": uuid.uuid4().hex,
            "op": "resummarize",
            "span_ids": [child.span_id],
            "rationale": f"compress {summary.span_id} to {max_tokens} tokens",
            "derived_from": [summary.span_id, *roots],
        }
    )
    buf.add(child)
    buf.tombstone(summary.span_id)
    return child
