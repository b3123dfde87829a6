"""Summaries of the working context."""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from langroid.agent.chat_agent import ChatAgent
from langroid.language_models.base import Role

from .models import ContextSpan
from .settings import TemplateRegistry
from .store import SpanBuffer


def _turns(spans: Sequence[ContextSpan]) -> str:
    return "\n".join(f"{s.role}: {s.content}" for s in spans)


class RollingSummarizer:
    """Keeps one running summary span, refreshed every few turns."""

    def __init__(self, agent: ChatAgent, buffer: SpanBuffer, templates: TemplateRegistry) -> None:
        self.agent = agent
        self.buffer = buffer
        self.templates = templates
        self.summary_id: Optional[str] = None

    def update(self, new_spans: Sequence[ContextSpan]) -> ContextSpan:
        if self.summary_id is None:
            prompt = self.templates.get("summary").text.format(turns=_turns(new_spans))
            text = self.agent.llm_response_forget(prompt).content
            span = ContextSpan.create(text, role=Role.SYSTEM.value, produced_by="summary")
            self.buffer.add(span)
            self.summary_id = span.span_id
        else:
            prior = self.buffer.get(self.summary_id).content
            prompt = self.templates.get("rolling").text.format(
                summary=prior, turns=_turns(new_spans)
            )
            text = self.agent.llm_response_forget(prompt).content
            span = self.buffer.rewrite(self.summary_id, text, op="summarize")
        for s in new_spans:
            self.buffer.tombstone(s.span_id)
        return span


class SourceSummarizer:
    def __init__(self, agent: ChatAgent, buffer: SpanBuffer, templates: TemplateRegistry) -> None:
        self.agent = agent
        self.buffer = buffer
        self.templates = templates

    def summarize(self) -> ContextSpan:
        sources = [s for s in self.buffer if s.produced_by == "ingest"]
        prompt = self.templates.get("summary").text.format(turns=_turns(sources))
        text = self.agent.llm_response_forget(prompt).content
        span = ContextSpan.create(
            text,
            role=Role.SYSTEM.value,
            produced_by="summary",
            parent_ids=tuple(s.span_id for s in sources),
        )
        return self.buffer.add(span)


class LineageSummarizer:
    """Hierarchical summaries; each level records the source spans at its root."""

    def __init__(self, agent: ChatAgent, buffer: SpanBuffer, templates: TemplateRegistry) -> None:
        self.agent = agent
        self.buffer = buffer
        self.templates = templates
        self.roots: dict[str, Tuple[str, ...]] = {}

    def _roots_of(self, span: ContextSpan) -> Tuple[str, ...]:
        return self.roots.get(span.span_id, (span.span_id,))

    def merge(self, parts: List[ContextSpan]) -> ContextSpan:
        root_ids = tuple(r for p in parts for r in self._roots_of(p))
        missing = [r for r in root_ids if self.buffer.find(r) is None]
        if missing:
            raise LookupError(f"cannot merge: roots {missing} no longer addressable")
        for r in root_ids:
            self.buffer.hold(r, "lineage")
        prompt = self.templates.get("summary").text.format(turns=_turns(parts))
        text = self.agent.llm_response_forget(prompt).content
        merged = ContextSpan.create(
            text,
            role=Role.SYSTEM.value,
            produced_by="summary:merge",
            parent_ids=tuple(p.span_id for p in parts),
        )
        self.roots[merged.span_id] = root_ids
        return self.buffer.add(merged)
