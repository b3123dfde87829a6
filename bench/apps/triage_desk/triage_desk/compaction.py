"""AutoGen model context that prunes stale tool output, with an audit trail."""

from __future__ import annotations

from typing import List

from autogen_core.model_context import BufferedChatCompletionContext
from autogen_core.models import FunctionExecutionResultMessage, LLMMessage

from .decision_log import AuditLog

MAX_TOOL_CHARS = 1200


class TriageModelContext(BufferedChatCompletionContext):
    def __init__(self, buffer_size: int, audit: AuditLog, initial_messages: List[LLMMessage] | None = None) -> None:
        super().__init__(buffer_size=buffer_size, initial_messages=initial_messages)
        self.audit = audit

    async def get_messages(self) -> List[LLMMessage]:
        for message in self._messages:
            if isinstance(message, FunctionExecutionResultMessage):
                for result in message.content:
                    if len(result.content) > MAX_TOOL_CHARS:
                        result.content = result.content[:MAX_TOOL_CHARS] + " …[truncated]"
        return await super().get_messages()

    def drop_failed_tool_results(self) -> int:
        dropped = 0
        for i in range(len(self._messages) - 1, -1, -1):
            message = self._messages[i]
            if isinstance(message, FunctionExecutionResultMessage) and all(r.is_error for r in message.content):
                call_ids = [r.call_id for r in message.content]
                del self._messages[i]
                self.audit.record("drop", call_ids, "tool call failed", errors=[r.content for r in message.content])
                dropped += 1
        return dropped

    def drop_superseded(self, superseded_call_ids: set[str], reason: str) -> None:
        keep: List[LLMMessage] = []
        for message in self._messages:
            if isinstance(message, FunctionExecutionResultMessage):
                ids = [r.call_id for r in message.content]
                if set(ids) <= superseded_call_ids:
                    self.audit.record("drop", ids, reason, excerpt=message.content[0].content[:200])
                    continue
            keep.append(message)
        self._messages = keep

    def retract_last_decision(self, note: str) -> None:
        if self.audit.entries:
            self.audit.entries[-1].reason = f"{self.audit.entries[-1].reason} (retracted: {note})"
