"""Context creation: what the model sees each turn."""
from __future__ import annotations

from typing import List, Tuple

from camel.memories import ContextRecord, ScoreBasedContextCreator
from camel.messages import OpenAIMessage
from camel.utils import BaseTokenCounter

from .models import STATE_KEY


class PreviewContextCreator(ScoreBasedContextCreator):
    """Drops non-live spans and shows long spans as a head/tail preview."""

    def __init__(self, token_counter: BaseTokenCounter, token_limit: int, preview_chars: int = 2_000) -> None:
        super().__init__(token_counter, token_limit)
        self.preview_chars = preview_chars

    def _view(self, cr: ContextRecord) -> ContextRecord:
        content = cr.memory_record.message.content
        if len(content) <= self.preview_chars:
            return cr
        half = self.preview_chars // 2
        shown = f"{content[:half]}\n[... {len(content) - 2 * half} chars ...]\n{content[-half:]}"
        view_record = cr.memory_record.model_copy(
            update={"message": cr.memory_record.message.create_new_instance(shown)}
        )
        return ContextRecord(memory_record=view_record, score=cr.score, timestamp=cr.timestamp)

    def create_context(self, records: List[ContextRecord]) -> Tuple[List[OpenAIMessage], int]:
        visible = [
            self._view(cr)
            for cr in records
            if cr.memory_record.extra_info.get(STATE_KEY, "live") == "live"
        ]
        return super().create_context(visible)
