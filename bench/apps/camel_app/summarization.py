"""Summaries of the conversation, built with a dedicated ChatAgent."""
from __future__ import annotations

import uuid
from typing import Dict, List, Optional, Sequence

from camel.agents import ChatAgent
from camel.memories import MemoryRecord
from camel.messages import BaseMessage

from .buffer import ContextBuffer
from .models import Summary, record_id

SUMMARY_SYSTEM = BaseMessage.make_system_message(
    "You write faithful summaries. Never state a fact absent from the input."
)


def _summary_agent(model) -> ChatAgent:
    return ChatAgent(system_message=SUMMARY_SYSTEM, model=model)


def _render(records: Sequence[MemoryRecord]) -> str:
    return "\n".join(f"- ({r.role_at_backend.value}) {r.message.content}" for r in records)


class RollingSummarizer:
    def __init__(self, model) -> None:
        self.agent = _summary_agent(model)
        self.current: Optional[Summary] = None

    def update(self, new_records: Sequence[MemoryRecord]) -> Summary:
        if self.current is None:
            prompt = f"Summarize:\n{_render(new_records)}"
            summary_id = uuid.uuid4().hex
        else:
            prompt = (
                f"Previous summary:\n{self.current.text}\n\n"
                f"New turns:\n{_render(new_records)}\n\n"
                "Write an updated summary."
            )
            summary_id = self.current.summary_id
        self.agent.reset()
        response = self.agent.step(prompt)
        self.current = Summary(
            summary_id=summary_id,
            text=response.msg.content,
            source_ids=[record_id(r) for r in new_records],
        )
        return self.current


def summarize_sources(model, buffer: ContextBuffer, span_ids: Sequence[str]) -> Summary:
    sources = [buffer.find(sid) for sid in span_ids]
    sources = [s for s in sources if s is not None]
    agent = _summary_agent(model)
    response = agent.step(f"Summarize:\n{_render(sources)}")
    return Summary(
        summary_id=uuid.uuid4().hex,
        text=response.msg.content,
        source_ids=[record_id(s) for s in sources],
    )


class SummaryTree:
    def __init__(self, model, buffer: ContextBuffer) -> None:
        self.model = model
        self.buffer = buffer
        self.nodes: Dict[str, Summary] = {}

    def leaf(self, span_ids: Sequence[str]) -> Summary:
        node = summarize_sources(self.model, self.buffer, span_ids)
        for sid in node.source_ids:
            self.buffer.hold(sid, holder=f"summary:{node.summary_id}")
        self.nodes[node.summary_id] = node
        return node

    def roll_up(self, children: List[Summary]) -> Summary:
        agent = _summary_agent(self.model)
        joined = "\n\n".join(f"[{c.summary_id[:8]}] {c.text}" for c in children)
        response = agent.step(
            "Merge these section summaries. Keep each claim attributable to "
            f"its section id.\n\n{joined}"
        )
        parent = Summary(
            summary_id=uuid.uuid4().hex,
            text=response.msg.content,
            source_ids=sorted({sid for c in children for sid in c.source_ids}),
            depth=1 + max(c.depth for c in children),
        )
        for child in children:
            child.parent_id = parent.summary_id
        self.nodes[parent.summary_id] = parent
        return parent

    def sources_of(self, summary_id: str) -> List[MemoryRecord]:
        node = self.nodes[summary_id]
        return [r for r in (self.buffer.find(s) for s in node.source_ids) if r is not None]
