"""Summaries of the passage store for the planner's context."""

from __future__ import annotations

import uuid

import dspy

from .models import SpanKey, SummaryRecord
from .store import PassageStore


class Condense(dspy.Signature):
    """Condense the text to at most budget_chars characters, keeping decisions, names and numbers."""

    text: str = dspy.InputField()
    budget_chars: int = dspy.InputField()
    summary: str = dspy.OutputField()


class SummarizeSources(dspy.Signature):
    """Summarize the passages. State only what the passages support."""

    passages: list[str] = dspy.InputField()
    budget_chars: int = dspy.InputField()
    summary: str = dspy.OutputField()


class ShrinkToBudget(dspy.Module):
    def __init__(self, budget_chars: int = 1200, max_passes: int = 4) -> None:
        super().__init__()
        self.budget_chars = budget_chars
        self.max_passes = max_passes
        self.condense = dspy.ChainOfThought(Condense)

    def forward(self, text: str) -> dspy.Prediction:
        summary = text
        passes = 0
        while len(summary) > self.budget_chars and passes < self.max_passes:
            summary = self.condense(text=summary, budget_chars=self.budget_chars).summary
            passes += 1
        return dspy.Prediction(summary=summary, passes=passes)


class SourceSummary(dspy.Module):
    def __init__(self, store: PassageStore, budget_chars: int = 1200) -> None:
        super().__init__()
        self.store = store
        self.budget_chars = budget_chars
        self.summarize = dspy.ChainOfThought(SummarizeSources)

    def forward(self, pids: list[str]) -> dspy.Prediction:
        sources = [self.store.get(pid) for pid in pids if pid in self.store]
        result = self.summarize(passages=[p.text for p in sources], budget_chars=self.budget_chars)
        record = SummaryRecord(
            summary_id=uuid.uuid4().hex[:12],
            text=result.summary,
            source_keys=tuple(SpanKey.of(p) for p in sources),
        )
        return dspy.Prediction(summary=result.summary, record=record)


class RollupSummary(dspy.Module):
    """Summarizes child summaries; keeps the parent chain and the source keys at the root."""

    def __init__(self, budget_chars: int = 1200) -> None:
        super().__init__()
        self.budget_chars = budget_chars
        self.condense = dspy.ChainOfThought(Condense)
        self.records: dict[str, SummaryRecord] = {}

    def forward(self, children: list[SummaryRecord]) -> dspy.Prediction:
        joined = "\n\n".join(child.text for child in children)
        result = self.condense(text=joined, budget_chars=self.budget_chars)
        roots = tuple(dict.fromkeys(key for child in children for key in child.source_keys))
        record = SummaryRecord(
            summary_id=uuid.uuid4().hex[:12],
            text=result.summary,
            source_keys=roots,
            parent_ids=tuple(child.summary_id for child in children),
            generation=max((child.generation for child in children), default=0) + 1,
        )
        for child in children:
            self.records.setdefault(child.summary_id, child)
        self.records[record.summary_id] = record
        return dspy.Prediction(summary=result.summary, record=record)
