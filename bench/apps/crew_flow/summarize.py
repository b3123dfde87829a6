"""Summaries of the research context."""

from __future__ import annotations

from collections.abc import Sequence

from crewai import LLM

from crew_flow.spans import ContextBuffer, ContextSpan
from crew_flow.state import ResearchState, SummaryRecord

SUMMARY_PROMPT = (
    "You maintain the working notes of a research assistant. Summarize the material below "
    "in at most {words} words. Preserve open questions, decisions and their reasons.\n\n"
    "{material}"
)


def _summarize(llm: LLM, material: str, words: int) -> str:
    out = llm.call([{"role": "user", "content": SUMMARY_PROMPT.format(words=words, material=material)}])
    return str(out).strip()


def _render(spans: Sequence[ContextSpan]) -> str:
    return "\n\n".join(f"<{s.kind} id={s.id}>\n{s.content}" for s in spans)


def tighten_summary(state: ResearchState, llm: LLM, max_chars: int = 3_000) -> bool:
    notes = state.running_summary
    if len(notes) <= max_chars:
        return False
    state.running_summary = _summarize(llm, notes, words=max_chars // 12)
    return True


def summarize_from_sources(
    buffer: ContextBuffer, llm: LLM, span_ids: Sequence[str], words: int = 250
) -> SummaryRecord:
    sources = [buffer.get(sid) for sid in span_ids]
    text = _summarize(llm, _render(sources), words=words)
    return SummaryRecord(text=text, source_ids=[s.id for s in sources])


def resummarize_with_chain(
    state: ResearchState, llm: LLM, parent: SummaryRecord, words: int = 150
) -> SummaryRecord:
    child = SummaryRecord(
        text=_summarize(llm, parent.text, words=words),
        source_ids=list(parent.source_ids),
        parent_id=parent.id,
        generation=parent.generation + 1,
    )
    state.summaries.append(child)
    return child
