# rules: SPL301
"""Conversation summary memories in the style of agent frameworks."""
from __future__ import annotations

from dataclasses import dataclass, field


class ConversationSummaryMemory:
    def __init__(self, llm) -> None:
        self.llm = llm
        self.buffer = ""
        self.chat_memory = []

    def predict_new_summary(self, messages, existing_summary: str) -> str:
        prompt = SUMMARY_PROMPT.format(summary=existing_summary, new_lines="\n".join(messages))
        return self.llm.predict(prompt)

    def save_context(self, inputs, outputs) -> None:
        self.chat_memory.extend([inputs, outputs])
        self.buffer = self.predict_new_summary(self.chat_memory[-2:], self.buffer)  # expect: SPL301


class RunningSummaryMemory:
    def __init__(self, summarizer) -> None:
        self.summarizer = summarizer
        self.summary = None

    async def on_turn(self, turns) -> None:
        self.summary = await self.summarizer.summarize(self.summary, turns)  # expect: SPL301


class TrackedSummaryMemory:
    def __init__(self, summarizer) -> None:
        self.summarizer = summarizer
        self.summary = None
        self.summary_chain = []

    async def on_turn(self, turns) -> None:
        previous = self.summary
        self.summary = await self.summarizer.summarize(previous, turns)
        self.summary_chain.append({"from": previous, "turns": [t.id for t in turns]})


class SourceSummaryMemory:
    """Summarizes from the source turns every time: no summary of a summary."""

    def __init__(self, llm) -> None:
        self.llm = llm
        self.turns = []
        self.summary = ""

    def add(self, turn) -> None:
        self.turns.append(turn)
        self.summary = self.llm.summarize("\n".join(t.text for t in self.turns))


@dataclass
class Summary:
    text: str
    parents: list[str] = field(default_factory=list)


def fold(llm, previous: Summary, turns) -> Summary:
    text = llm.summarize(previous.text, turns, parents=[previous.text])
    return Summary(text, parents=[previous.text])
