"""Summarize old segments so the window stays under budget."""

from __future__ import annotations

from typing import Protocol

from scratchpad.decision_log import DecisionLog
from scratchpad.models import Segment, new_id
from scratchpad.window import ContextWindow


class LLM(Protocol):
    def complete(self, prompt: str) -> str: ...


PROMPT = "Summarize the following notes for a planning agent. Keep decisions and open questions.\n\n{text}"


class RollingSummarizer:
    def __init__(self, llm: LLM) -> None:
        self.llm = llm

    def fold(self, window: ContextWindow, batch: list[Segment]) -> Segment:
        text = "\n".join(s.body for s in batch)
        prev = window.running_summary
        if prev is not None:
            text = prev.body + "\n" + text
        summary = self.llm.complete(PROMPT.format(text=text))
        window.running_summary = Segment(seg_id=new_id("sum"), body=summary, kind="summary")
        return window.running_summary


class SourceSummarizer:
    """Summaries are always made from the source segments, never from a summary."""

    def __init__(self, llm: LLM, log: DecisionLog) -> None:
        self.llm = llm
        self.log = log

    def summarize(self, window: ContextWindow, seg_ids: list[str]) -> Segment:
        sources = [window.get(i) for i in seg_ids]
        text = "\n".join(s.body for s in sources if s is not None and s.kind != "summary")
        out = Segment(seg_id=new_id("sum"), body=self.llm.complete(PROMPT.format(text=text)),
                      kind="summary", parents=list(seg_ids))
        self.log.record("summarize", seg_ids, "window over budget", summary_id=out.seg_id)
        return window.add(out)


def resummarize(llm: LLM, summary: Segment) -> Segment:
    """Shrink a summary further when the window is still too big."""
    shorter = llm.complete(PROMPT.format(text=summary.body))
    return Segment(seg_id=new_id("sum"), body=shorter, kind="summary")


def resummarize_tracked(llm: LLM, summary: Segment, log: DecisionLog) -> Segment:
    shorter = llm.complete(PROMPT.format(text=summary.body))
    out = Segment(seg_id=new_id("sum"), body=shorter, kind="summary",
                  parents=[summary.seg_id, *summary.parents])
    log.record("resummarize", [summary.seg_id], "still over budget", chain=out.parents)
    return out
