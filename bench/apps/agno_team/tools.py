"""Tools the team uses to inspect and edit its working context."""
from __future__ import annotations

import time
from typing import Any, Dict, List

from agno.run.base import RunContext
from agno.tools import Toolkit

from agno_team.buffer import SpanBuffer
from agno_team.decision_log import DecisionLog
from agno_team.models import content_digest


class ContextTools(Toolkit):
    def __init__(self, buffer: SpanBuffer, log: DecisionLog, **kwargs: Any) -> None:
        self.buffer = buffer
        self.log = log
        super().__init__(
            name="context_tools",
            tools=[self.list_spans, self.read_span, self.edit_span, self.flag_span],
            **kwargs,
        )

    def list_spans(self) -> str:
        """List the ids and kinds of spans in the working context."""
        return "\n".join(f"{s.span_id}\t{s.kind}\t{len(s.content)}" for s in self.buffer.live())

    def read_span(self, span_id: str) -> str:
        """Return the text of one span.

        Args:
            span_id: id of the span to read.
        """
        span = self.buffer.view().get(span_id)
        if span is None:
            return f"no span {span_id}"
        return f"[{span.span_id} v{span.version}] {span.content}"

    def edit_span(self, run_context: RunContext, span_id: str, new_text: str) -> str:
        """Replace the text of a scratch span kept in session state.

        Args:
            span_id: id of the scratch span.
            new_text: the replacement text.
        """
        state = run_context.session_state if run_context.session_state is not None else {}
        records: Dict[str, Dict[str, Any]] = state.setdefault("scratch_spans", {})
        rec = records.get(span_id)
        if rec is None:
            return f"no scratch span {span_id}"
        rec["content"] = new_text
        rec["content_hash"] = content_digest(new_text)
        rec["updated_at"] = time.time()
        return f"updated {span_id}"

    def flag_span(self, span_id: str, reason: str) -> str:
        """Flag a span as irrelevant so the next compaction considers it.

        Args:
            span_id: id of the span.
            reason: why it is irrelevant.
        """
        self.log.record(op="flag", target_ids=[span_id], rationale=reason)
        return "flagged"


def scratch_records(run_context: RunContext) -> List[Dict[str, Any]]:
    state = run_context.session_state or {}
    return list(state.get("scratch_spans", {}).values())
