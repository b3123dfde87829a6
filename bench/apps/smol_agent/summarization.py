"""Summaries over agent memory and the context buffer."""

from __future__ import annotations

import uuid

from smolagents.memory import ActionStep, AgentMemory
from smolagents.models import Model

from .models import ContextSpan
from .operators import ask_model
from .store import SpanBuffer


def summarize_text(model: Model, text: str, budget: int) -> str:
    text = text.strip()
    if len(text) <= budget:
        return text
    out = ask_model(model, f"Summarize the following in at most {budget} characters.", text)
    out = out[:budget]
    return out


class RollingSummarizer:
    def __init__(self, model: Model, budget: int) -> None:
        self.model = model
        self.budget = budget
        self.summary = ""

    def on_action_step(self, memory_step: ActionStep, agent=None) -> None:
        if memory_step.observations:
            self.summary = summarize_text(
                self.model, f"{self.summary}\n\n{memory_step.observations}", self.budget
            )


def summarize_from_sources(memory: AgentMemory, model: Model, budget: int) -> str:
    sources = [
        f"Step {s.step_number}: {s.observations}"
        for s in memory.steps
        if isinstance(s, ActionStep) and s.observations
    ]
    return summarize_text(model, "\n\n".join(sources), budget)


def merge_summaries(buffer: SpanBuffer, model: Model, budget: int) -> ContextSpan:
    prior = [s for s in buffer.live() if s.produced_by == "summary"]
    text = summarize_text(model, "\n\n".join(s.content for s in prior), budget)
    merged = ContextSpan(span_id=f"sum-{uuid.uuid4().hex[:8]}", content=text, produced_by="summary")
    return buffer.add(merged)


def merge_summaries_tracked(buffer: SpanBuffer, model: Model, budget: int) -> ContextSpan:
    prior = [s for s in buffer.live() if s.produced_by == "summary"]
    roots = sorted({root for s in prior for root in (s.derived_from or (s.span_id,))})
    sources = [buffer.get(r) for r in roots if r in buffer.view()]
    text = summarize_text(model, "\n\n".join(s.content for s in sources), budget)
    merged = ContextSpan(
        span_id=f"sum-{uuid.uuid4().hex[:8]}",
        content=text,
        produced_by="summary",
        derived_from=tuple(s.span_id for s in sources),
    )
    buffer.add(merged)
    for s in sources:
        buffer.hold(s.span_id, merged.span_id)
    return merged
