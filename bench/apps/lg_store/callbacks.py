"""Callback handler that records token offsets of model output for highlighting."""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatGeneration, LLMResult

from .models import content_digest, message_text, message_version

_TOKEN = re.compile(r"\S+")


def token_offsets(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _TOKEN.finditer(text)]


class OffsetRecorder(BaseCallbackHandler):
    """Keeps token offset maps of every AI message the agent produced."""

    def __init__(self) -> None:
        self.offsets: dict[tuple[str, int, str], list[tuple[int, int]]] = {}
        self.usage: dict[UUID, dict[str, int]] = {}

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        for generations in response.generations:
            for gen in generations:
                if isinstance(gen, ChatGeneration) and gen.message.id:
                    self._remember(gen.message)
        if response.llm_output and "token_usage" in response.llm_output:
            self.usage[run_id] = dict(response.llm_output["token_usage"])

    @staticmethod
    def _key(msg: BaseMessage) -> tuple[str, int, str]:
        version, digest = message_version(msg)
        return str(msg.id), version, digest or content_digest(message_text(msg))

    def _remember(self, msg: BaseMessage) -> None:
        self.offsets[self._key(msg)] = token_offsets(message_text(msg))

    def offsets_for(self, msg: BaseMessage) -> list[tuple[int, int]] | None:
        return self.offsets.get(self._key(msg))

    def held_ids(self) -> set[str]:
        return {key[0] for key in self.offsets}
