"""Summaries of retained spans, produced by an AtomicAgent."""

from __future__ import annotations

import uuid

import instructor
from atomic_agents import AgentConfig, AtomicAgent
from atomic_agents.context import ChatHistory, SystemPromptGenerator

from .models import SpanBody, SummaryBody, SummaryRequest, SummaryResponse
from .store import SpanHistory


def build_summarizer(client: instructor.Instructor, model: str) -> AtomicAgent[SummaryRequest, SummaryResponse]:
    return AtomicAgent[SummaryRequest, SummaryResponse](
        AgentConfig(
            client=client,
            model=model,
            name="summarizer",
            history=ChatHistory(max_messages=4),
            system_prompt_generator=SystemPromptGenerator(
                background=["You compress research notes without adding facts."],
                output_instructions=["Only state what the passages support."],
            ),
        )
    )


def summarize_sources(history: SpanHistory, agent: AtomicAgent, source_ids: list[str]) -> SummaryBody:
    sources = [b for b in (history.body(i) for i in source_ids) if isinstance(b, SpanBody)]
    agent.reset_history()
    resp = agent.run(SummaryRequest(instruction="Summarize", passages=[b.text for b in sources]))
    summary = SummaryBody(
        span_id=f"sum-{uuid.uuid4().hex[:10]}",
        text=resp.summary,
        source_ids=[b.span_id for b in sources],
        root_ids=[b.span_id for b in sources],
        generation=1,
    )
    history.add_message("system", summary)
    return summary


def condense(agent: AtomicAgent, summary: SummaryBody, passes: int = 3, limit: int = 600) -> SummaryBody:
    text = summary.text
    for _ in range(passes):
        if len(text) <= limit:
            break
        agent.reset_history()
        text = agent.run(SummaryRequest(instruction="Make this shorter", passages=[text])).summary
    return SummaryBody(
        span_id=f"sum-{uuid.uuid4().hex[:10]}",
        text=text,
        source_ids=[summary.span_id],
        generation=summary.generation + passes,
    )


def resummarize_with_lineage(history: SpanHistory, agent: AtomicAgent, prev: SummaryBody) -> SummaryBody:
    roots = [history.body(r) for r in prev.root_ids]
    if any(r is None for r in roots):
        raise LookupError(f"summary {prev.span_id} has unaddressable roots")
    agent.reset_history()
    resp = agent.run(
        SummaryRequest(
            instruction="Update the summary; check every claim against the sources",
            passages=[prev.text, *(r.text for r in roots)],
        )
    )
    nxt = SummaryBody(
        span_id=f"sum-{uuid.uuid4().hex[:10]}",
        text=resp.summary,
        source_ids=[prev.span_id, *prev.root_ids],
        root_ids=list(prev.root_ids),
        generation=prev.generation + 1,
    )
    history.add_message("system", nxt)
    return nxt


async def refresh_in_place(history: SpanHistory, agent: AtomicAgent, summary_id: str) -> SummaryBody:
    msg = history.find(summary_id)
    if msg is None or not isinstance(msg.content, SummaryBody):
        raise KeyError(summary_id)
    sb = msg.content
    passages = [b.text for b in (history.body(i) for i in sb.root_ids) if b is not None]
    agent.reset_history()
    resp = await agent.run_async(SummaryRequest(instruction="Summarize", passages=passages))
    sb.text = resp.summary
    sb.version += 1
    return sb
