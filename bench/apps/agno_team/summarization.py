"""Summaries of the working context and of Agno sessions."""
from __future__ import annotations

from datetime import datetime
from typing import Iterable, List
from uuid import uuid4

from agno.agent import Agent
from agno.session import AgentSession
from agno.session.summary import SessionSummary

from agno_team.buffer import SpanBuffer
from agno_team.models import ContextSpan, SummaryRecord


class LineageError(RuntimeError):
    pass


def _ask(agent: Agent, prompt: str) -> str:
    result = agent.run(prompt, stream=False)
    return result.content if isinstance(result.content, str) else str(result.content)


def condense(agent: Agent, text: str, passes: int = 3) -> str:
    current = text
    for _ in range(passes):
        current = _ask(agent, f"Condense this into fewer words, keeping the key facts:\n\n{current}")
    return current


def summarize_sources(agent: Agent, buffer: SpanBuffer, source_ids: Iterable[str]) -> SummaryRecord:
    sources: List[ContextSpan] = []
    for span_id in source_ids:
        span = buffer.get(span_id)
        if span is not None and span.kind != "summary":
            sources.append(span)
    body = "\n\n".join(f"[{s.span_id}] {s.content}" for s in sources)
    text = _ask(agent, f"Summarize these passages. Refer to them by id.\n\n{body}")
    ids = tuple(s.span_id for s in sources)
    return SummaryRecord(summary_id=uuid4().hex, text=text, source_ids=ids, root_ids=ids)


def resummarize(agent: Agent, parent: SummaryRecord, buffer: SpanBuffer) -> SummaryRecord:
    missing = [i for i in parent.root_ids if buffer.get(i) is None]
    if missing:
        raise LineageError(f"roots no longer addressable: {missing}")
    text = _ask(agent, f"Shorten this summary without adding claims:\n\n{parent.text}")
    return SummaryRecord(
        summary_id=uuid4().hex,
        text=text,
        source_ids=(parent.summary_id,),
        root_ids=parent.root_ids,
        parent_summary_id=parent.summary_id,
        generation=parent.generation + 1,
    )


async def arefresh_session_summary(agent: Agent, session: AgentSession) -> SessionSummary | None:
    prior = session.summary
    if prior is None:
        return None
    result = await agent.arun(f"Tighten this conversation summary:\n\n{prior.summary}", stream=False)
    text = result.content if isinstance(result.content, str) else str(result.content)
    session.summary = SessionSummary(summary=text, topics=prior.topics, updated_at=datetime.now())
    agent.save_session(session)
    return session.summary


def summary_span(record: SummaryRecord) -> ContextSpan:
    return ContextSpan(
        span_id=f"summary:{record.summary_id}",
        content=record.text,
        kind="summary",
        source_id=record.parent_summary_id,
        produced_by=f"summarize:g{record.generation}",
    )
