"""Summaries of conversation spans, produced by a summarizer agent."""

from __future__ import annotations

from dataclasses import dataclass, field

from agents import Agent, Runner

from .buffer import ContextBuffer
from .models import AgentNote, DeskSpan


@dataclass
class SummaryRecord:
    span_id: str
    parents: tuple[str, ...]
    root_sources: tuple[str, ...]
    source_hashes: dict[str, str] = field(default_factory=dict)


async def _summarize(summarizer: Agent, text: str) -> str:
    result = await Runner.run(summarizer, text)
    return str(result.final_output)


async def summarize_from_sources(
    buffer: ContextBuffer, summarizer: Agent, source_ids: list[str], summary_id: str
) -> tuple[DeskSpan, SummaryRecord]:
    sources = [buffer.get(sid) for sid in source_ids]
    sources = [s for s in sources if s is not None and s.produced_by == "ingest"]
    joined = "\n\n".join(f"[{s.span_id}] {s.content}" for s in sources)
    text = await _summarize(summarizer, joined)
    span = buffer.add(DeskSpan(span_id=summary_id, content=text, role="assistant", produced_by="summary"))
    record = SummaryRecord(
        span_id=span.span_id,
        parents=tuple(s.span_id for s in sources),
        root_sources=tuple(s.span_id for s in sources),
        source_hashes={s.span_id: s.content_hash for s in sources},
    )
    return span, record


async def condense_rolling_summary(
    buffer: ContextBuffer, summarizer: Agent, summary_id: str, passes: int = 3
) -> DeskSpan:
    current = buffer.get(summary_id)
    text = current.content if current is not None else ""
    for _ in range(passes):
        text = await _summarize(summarizer, f"Condense this summary further:\n{text}")
    return buffer.rewrite_copy(summary_id, text, "condense") if current else buffer.add(
        DeskSpan(span_id=summary_id, content=text, role="assistant", produced_by="summary")
    )


async def extend_summary(
    buffer: ContextBuffer,
    summarizer: Agent,
    previous: SummaryRecord,
    new_source_ids: list[str],
    summary_id: str,
) -> tuple[DeskSpan, SummaryRecord]:
    prev_span = buffer.get(previous.span_id)
    new_sources = [s for s in (buffer.get(sid) for sid in new_source_ids) if s is not None]
    roots = [s for s in (buffer.get(sid) for sid in previous.root_sources) if s is not None]
    if prev_span is None or len(roots) != len(previous.root_sources):
        return await summarize_from_sources(
            buffer, summarizer, list(previous.root_sources) + new_source_ids, summary_id
        )
    prompt = (
        f"Existing summary (from {', '.join(previous.root_sources)}):\n{prev_span.content}\n\n"
        "New turns:\n" + "\n".join(f"[{s.span_id}] {s.content}" for s in new_sources)
    )
    text = await _summarize(summarizer, prompt)
    span = buffer.add(DeskSpan(span_id=summary_id, content=text, role="assistant", produced_by="summary"))
    record = SummaryRecord(
        span_id=span.span_id,
        parents=(previous.span_id, *(s.span_id for s in new_sources)),
        root_sources=previous.root_sources + tuple(s.span_id for s in new_sources),
        source_hashes={**previous.source_hashes, **{s.span_id: s.content_hash for s in new_sources}},
    )
    return span, record


def tidy_notes(notes: dict[str, AgentNote]) -> dict[str, AgentNote]:
    for note_id, note in list(notes.items()):
        cleaned = " ".join(note.text.split()).rstrip(".") + "."
        notes[note_id] = AgentNote(note_id=note_id, ticket_id=note.ticket_id, text=cleaned, author=note.author)
    return notes
