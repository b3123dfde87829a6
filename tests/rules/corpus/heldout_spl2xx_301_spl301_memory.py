# rules: SPL301
"""Conversation memories that re-summarize their own summaries."""
from __future__ import annotations

from typing import Any


def summarize(*texts: str, **kwargs: Any) -> str:
    return " ".join(texts)[:200]


def condense(text: str) -> str:
    return text[:100]


def summarise(text: str) -> str:
    return text[:100]


def resummarize(text: str) -> str:
    return text[:100]


def twice(text: str) -> str:
    return summarize(summarize(text))  # expect: SPL301


def two_step(messages: list[str]) -> str:
    first = summarize("\n".join(messages))
    second = summarize(first)  # expect: SPL301
    return second


def rolling(batches: list[list[str]]) -> str:
    summary = ""
    for batch in batches:
        summary = summarize(summary + "\n".join(batch))  # expect: SPL301
    return summary


class SummaryBufferMemory:
    def __init__(self, llm: Any) -> None:
        self.llm = llm
        self.summary = ""
        self.moving_summary_buffer = ""
        self.running_summary = ""
        self._summary = ""

    def add(self, msgs: list[str]) -> None:
        self.summary = self.llm.summarize(self.summary, msgs)  # expect: SPL301

    def prune(self, pruned: list[str]) -> None:
        self.moving_summary_buffer = self.predict_new_summary(pruned, self.moving_summary_buffer)  # expect: SPL301

    def predict_new_summary(self, messages: list[str], existing_summary: str) -> str:
        return self.llm.predict(existing_summary + "\n".join(messages))

    async def aadd(self, batch: list[str]) -> None:
        self.summary = await self.llm.asummarize(self.summary, batch)  # expect: SPL301

    def squeeze(self) -> None:
        self.summary = self.llm.compress(self.summary)  # expect: SPL301

    def update(self, turn: str) -> None:
        self.running_summary = self.llm.update_summary(self.running_summary, turn)  # expect: SPL301

    def update_kw(self, new: list[str]) -> None:
        self._summary = self.llm.condense(text=self._summary + "\n".join(new))  # expect: SPL301

    def compact(self, mode: str, turns: list[str]) -> None:
        if mode == "append":
            self.summary += "\n".join(turns)
        elif mode == "compact":
            self.summary = self.llm.compress_summary(self.summary)  # expect: SPL301

    def dispatch(self, command: str, turns: list[str]) -> None:
        match command:
            case "roll":
                self.summary = self.llm.roll_summary(self.summary, turns)  # expect: SPL301
            case _:
                return


def summarize_messages(messages: list[str], existing_summary: str = "") -> str:
    return summarize(existing_summary, *messages)  # expect: SPL301


def fold(prev_summary: str, new_turns: list[str]) -> str:
    return condense(prev_summary + "\n".join(new_turns))  # expect: SPL301


def british(running_summary: str) -> str:
    return summarise(running_summary)  # expect: SPL301


def again(summary: str) -> str:
    return resummarize(summary)  # expect: SPL301


def graph_node(state: dict[str, Any], llm: Any) -> dict[str, Any]:
    summary = state.get("summary", "")
    new_summary = llm.create_summary(summary, state["messages"])  # expect: SPL301
    return {"summary": new_summary, "messages": []}


def shrink(text: str, limit: int) -> str:
    while len(text) > limit:
        text = condense(text)  # expect: SPL301
    return text


def walrus(chunk: str) -> str:
    if (s := summarize(chunk)) and len(s) > 100:
        return summarize(s)  # expect: SPL301
    return chunk


def reduce_step(chunks: list[str]) -> str:
    chunk_summaries = [summarize(c) for c in chunks]
    return summarize("\n".join(chunk_summaries))  # expect: SPL301


def guarded(summary: str, batch: list[str], log: Any) -> str:
    try:
        summary = summarize(summary, *batch)  # expect: SPL301
    finally:
        log.flush()
    return summary


def with_previous(llm: Any, new: list[str], prior: str) -> str:
    previous_summary = prior
    return llm.summarize(messages=new, previous_summary=previous_summary)  # expect: SPL301


async def agent_refresh(agent: Any) -> None:
    agent.state.summary = await agent.summarizer.summarize(agent.state.summary)  # expect: SPL301


def make_loop(chunks: list[str], llm: Any) -> str:
    summary = ""
    for chunk in chunks:
        summary = llm.make_summary(summary, chunk)  # expect: SPL301
    return summary


def refresh(llm: Any, old_summary: str) -> str:
    return llm.refresh_summary(old_summary)  # expect: SPL301


def map_summaries(summaries: list[str]) -> str:
    return summarize(*summaries)  # expect: SPL301
