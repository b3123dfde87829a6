"""Rolling summary of the conversation."""

from __future__ import annotations

from dataclasses import dataclass, field

from openai import OpenAI

from .spans import SpanStore


def _summarize(text: str, model: str = "gpt-4.1-mini") -> str:
    resp = OpenAI().responses.create(model=model, input=f"Summarize this IT ticket thread:\n{text}")
    return resp.output_text


@dataclass
class SummaryState:
    summary: str = ""
    turns_since: int = 0
    lineage: list[str] = field(default_factory=list)
    root_span_ids: list[str] = field(default_factory=list)


class RollingSummarizer:
    def __init__(self, store: SpanStore) -> None:
        self.store = store
        self.state = SummaryState()

    def roll(self, new_turns: list[str]) -> str:
        self.state.summary = _summarize(self.state.summary + "\n" + "\n".join(new_turns))
        self.state.turns_since = 0
        return self.state.summary

    def rebuild_from_sources(self) -> str:
        spans = list(self.store.live())
        self.state.summary = _summarize("\n".join(f"{s.role}: {s.content}" for s in spans))
        self.state.root_span_ids = [s.span_id for s in spans]
        return self.state.summary

    def condense(self) -> str:
        previous = self.state.summary
        self.state.lineage.append(previous)
        self.state.summary = _summarize(previous)
        return self.state.summary
