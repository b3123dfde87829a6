"""Running summaries of long conversations."""

from __future__ import annotations

from typing import Optional, Sequence
from uuid import uuid4

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage, get_buffer_string

from .records import ContextSpan, SummaryRecord

SUMMARY_PROMPT = "Summarise the conversation for a personal assistant. Keep names, dates, commitments and preferences."


class Summarizer:
    def __init__(self, llm: BaseChatModel) -> None:
        self._llm = llm
        self.current: Optional[SummaryRecord] = None

    async def _complete(self, body: str) -> str:
        reply = await self._llm.ainvoke([SystemMessage(SUMMARY_PROMPT), HumanMessage(body)])
        return reply.text

    async def roll_up(self, new_turns: Sequence[BaseMessage]) -> SummaryRecord:
        prior = self.current.text if self.current else ""
        text = await self._complete(f"Summary so far:\n{prior}\n\nNew turns:\n{get_buffer_string(list(new_turns))}")
        self.current = SummaryRecord(f"sum:{uuid4().hex[:10]}", text, source_ids=[m.id or "" for m in new_turns])
        return self.current

    async def extend(self, new_turns: Sequence[BaseMessage]) -> SummaryRecord:
        prev = self.current
        prior = prev.text if prev else ""
        text = await self._complete(f"Summary so far:\n{prior}\n\nNew turns:\n{get_buffer_string(list(new_turns))}")
        self.current = SummaryRecord(f"sum:{uuid4().hex[:10]}", text,
                                     source_ids=(prev.source_ids if prev else []) + [m.id or "" for m in new_turns],
                                     parent_summary_id=prev.summary_id if prev else None,
                                     generation=prev.generation + 1 if prev else 1)
        return self.current

    async def from_spans(self, spans: Sequence[ContextSpan]) -> SummaryRecord:
        sources = [s for s in spans if s.source != "summary"]
        text = await self._complete("\n\n".join(f"({s.source}) {s.content}" for s in sources))
        self.current = SummaryRecord(f"sum:{uuid4().hex[:10]}", text, source_ids=[s.span_id for s in sources])
        return self.current
