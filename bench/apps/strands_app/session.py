"""Session persistence for case agents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from strands.session import FileSessionManager
from strands.types.content import Message

from .buffer import CONTENT_HASH, SPAN_VERSION, span_meta, text_of
from .models import digest


class CaseSessionManager(FileSessionManager):
    """FileSessionManager that keeps span bookkeeping consistent across guardrail redactions."""

    def __init__(self, case_id: str, storage_dir: Path, **kwargs: Any) -> None:
        super().__init__(session_id=f"case-{case_id}", storage_dir=str(storage_dir), **kwargs)

    def redact_latest_message(self, redact_message: Message, agent: Any, **kwargs: Any) -> None:
        latest = self._latest_agent_message.get(agent.agent_id)
        previous = latest.message if latest is not None else None
        prior_version = int(span_meta(previous).get(SPAN_VERSION, 0)) if previous else 0
        meta = span_meta(redact_message)
        meta[SPAN_VERSION] = prior_version + 1
        meta[CONTENT_HASH] = digest(text_of(redact_message))
        meta["produced_by"] = "rewrite:guardrail-redact"
        super().redact_latest_message(redact_message, agent, **kwargs)
