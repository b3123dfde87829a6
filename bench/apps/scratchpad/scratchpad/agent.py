"""The planning loop: observe, act, keep the window small."""

from __future__ import annotations

import logging

from scratchpad.decision_log import DecisionLog
from scratchpad.index import EmbeddingIndex, ExcerptIndex, OffsetIndex, VectorCache
from scratchpad.models import Segment, digest, new_id
from scratchpad.operators import compress, gc, redact
from scratchpad.operators.prune import Pruner
from scratchpad.operators.summarize import RollingSummarizer, SourceSummarizer
from scratchpad.window import ContextWindow

log = logging.getLogger(__name__)

TOOL_LIMIT = 4000


class PlannerAgent:
    def __init__(self, llm, embed, tools) -> None:
        self.llm = llm
        self.tools = tools
        self.window = ContextWindow()
        self.decisions = DecisionLog()
        self.vectors = VectorCache(embed)
        self.embeddings = EmbeddingIndex(embed)
        self.offsets = OffsetIndex()
        self.excerpts = ExcerptIndex()
        self.pruner = Pruner(self.decisions)
        self.summarizer = SourceSummarizer(llm, self.decisions)
        self.rolling = RollingSummarizer(llm)
        self.turn = 0

    def observe(self, tool_name: str, output: str) -> Segment:
        seg = self.window.add(Segment(seg_id=new_id("tool"), body=output, kind="tool"))
        self.offsets.build(seg)
        self.vectors.get(seg)
        return seg

    def clamp_tool_output(self) -> None:
        for seg in self.window.values():
            if seg.kind != "tool" or len(seg.body) <= TOOL_LIMIT:
                continue
            seg.body = seg.body[:TOOL_LIMIT]

    def clamp_tool_output_safely(self) -> None:
        for seg in self.window.values():
            if seg.kind == "tool" and len(seg.body) > TOOL_LIMIT:
                self.window.replace(seg.seg_id, seg.body[:TOOL_LIMIT])

    def step(self, user_text: str) -> str:
        self.turn += 1
        for seg in self.window.values():
            redact.redact_emails(seg)
        self.clamp_tool_output_safely()
        if self.window.token_count() > self.window.budget_tokens:
            old = [s.seg_id for s in list(self.window)[:-6] if s.kind != "summary"]
            try:
                self.summarizer.summarize(self.window, old)
            except Exception:
                log.exception("summarize failed; pruning instead")
                self.pruner.prune_with_reason(self.window, old, "summarizer failed, over budget")
            else:
                self.pruner.prune_with_reason(self.window, old, "summarized")
        gc.collect_unreferenced(self.window, self.excerpts)
        prompt = "\n".join(s.body for s in self.window)
        return self.llm.complete(prompt + "\n\nUser: " + user_text)

    def retitle_plan(self, plan_seg: Segment, title: str) -> None:
        first, _, rest = plan_seg.body.partition("\n")
        plan_seg.body = f"# {title}\n{rest}"
        plan_seg.rev += 1

    def forget(self, seg_id: str) -> None:
        self.window.drop(seg_id)
