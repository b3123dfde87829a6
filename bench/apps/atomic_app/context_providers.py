"""Dynamic context providers injected into the system prompt."""

from __future__ import annotations

from atomic_agents.context import BaseDynamicContextProvider

from .citations import render_citations
from .decision_log import DecisionLog
from .models import Citation
from .store import SpanHistory
from .textutil import truncate


class PinnedSpansProvider(BaseDynamicContextProvider):
    def __init__(self, history: SpanHistory, title: str = "Pinned notes", width: int = 280):
        super().__init__(title=title)
        self.history = history
        self.width = width
        self.pinned: list[str] = []
        self._snippets: dict[str, str] = {}

    def pin(self, span_id: str) -> None:
        if span_id not in self.pinned:
            self.pinned.append(span_id)
            self.history.hold(span_id, "pinned")

    def _snippet(self, span_id: str) -> str:
        if span_id not in self._snippets:
            body = self.history.body(span_id)
            self._snippets[span_id] = truncate(body.text, self.width) if body else ""
        return self._snippets[span_id]

    def get_info(self) -> str:
        return "\n".join(f"- ({sid}) {self._snippet(sid)}" for sid in self.pinned)


class CitationsProvider(BaseDynamicContextProvider):
    def __init__(self, history: SpanHistory, title: str = "Sources cited so far"):
        super().__init__(title=title)
        self.history = history
        self.citations: list[Citation] = []

    def get_info(self) -> str:
        return "\n".join(render_citations(self.history, self.citations))


class DecisionLogProvider(BaseDynamicContextProvider):
    def __init__(self, log: DecisionLog, title: str = "Why earlier context was removed", last: int = 10):
        super().__init__(title=title)
        self.log = log
        self.last = last

    def get_info(self) -> str:
        rows = list(self.log)[-self.last:]
        return "\n".join(f"- {e.action} {', '.join(e.span_ids)}: {e.rationale}" for e in rows)
