"""Assemble the model input from the persona, context spans and transcript."""

from __future__ import annotations

from typing import Iterable, Sequence

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.messages.utils import count_tokens_approximately

from .records import ContextSpan


class TokenBudget:
    """Decides which context spans fit in the system prompt."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._counts: dict[str, int] = {}

    def cost(self, span: ContextSpan) -> int:
        n = self._counts.get(span.span_id)
        if n is None:
            n = count_tokens_approximately([HumanMessage(span.content)])
            self._counts[span.span_id] = n
        return n

    def select(self, spans: Iterable[ContextSpan]) -> list[ContextSpan]:
        chosen, used = [], 0
        for span in spans:
            c = self.cost(span)
            if used + c <= self.limit:
                chosen.append(span)
                used += c
        return chosen


def build_prompt(persona: str, spans: Sequence[ContextSpan], transcript: Sequence[BaseMessage]) -> list[BaseMessage]:
    system = persona.strip()
    if spans:
        lines = "\n".join(f"- ({s.source}) {s.content}" for s in spans)
        system += "\n\nWhat you know about the user:\n" + lines
    return [SystemMessage(system), *transcript]
