"""Model contexts used by the research agents.

Every message the agent sees gets a stable message id so the compaction pass
and the decision log can refer to it.
"""

from __future__ import annotations

import uuid
from typing import Any, Dict, List, Mapping, Sequence, Tuple

from autogen_core.model_context import ChatCompletionContext, UnboundedChatCompletionContext
from autogen_core.models import (
    AssistantMessage,
    FunctionExecutionResult,
    FunctionExecutionResultMessage,
    LLMMessage,
    SystemMessage,
    UserMessage,
)

from .notes import rough_tokens


def message_text(message: LLMMessage) -> str:
    if isinstance(message, FunctionExecutionResultMessage):
        return "\n".join(r.content for r in message.content)
    if isinstance(message.content, str):
        return message.content
    return " ".join(str(part) for part in message.content)


class ResearchContext(ChatCompletionContext):
    """Unbounded context that tracks ids and versions for each message."""

    def __init__(self, initial_messages: List[LLMMessage] | None = None) -> None:
        super().__init__(initial_messages)
        self._ids: List[str] = [uuid.uuid4().hex[:8] for _ in self._messages]
        self._versions: Dict[str, int] = {mid: 1 for mid in self._ids}
        self._token_counts: Dict[str, int] = {}
        self._counts_by_version: Dict[Tuple[str, int], int] = {}

    async def add_message(self, message: LLMMessage) -> None:
        await super().add_message(message)
        mid = uuid.uuid4().hex[:8]
        self._ids.append(mid)
        self._versions[mid] = 1

    async def get_messages(self) -> List[LLMMessage]:
        view: List[LLMMessage] = []
        for message in self._messages:
            if isinstance(message, AssistantMessage) and message.thought:
                message = message.model_copy(update={"thought": None})
            view.append(message)
        return view

    def ids(self) -> List[str]:
        return list(self._ids)

    def entries(self) -> List[Tuple[str, int, LLMMessage]]:
        return [(mid, self._versions[mid], msg) for mid, msg in zip(self._ids, self._messages)]

    def token_usage(self) -> int:
        total = 0
        for mid, message in zip(self._ids, self._messages):
            if mid not in self._token_counts:
                self._token_counts[mid] = rough_tokens(message_text(message))
            total += self._token_counts[mid]
        return total

    def token_usage_current(self) -> int:
        total = 0
        for mid, message in zip(self._ids, self._messages):
            key = (mid, self._versions[mid])
            if key not in self._counts_by_version:
                self._counts_by_version[key] = rough_tokens(message_text(message))
            total += self._counts_by_version[key]
        return total

    def shrink_tool_output(self, max_chars: int = 1200) -> int:
        shrunk = 0
        for message in self._messages:
            if not isinstance(message, FunctionExecutionResultMessage):
                continue
            for result in message.content:
                if len(result.content) > max_chars:
                    result.content = result.content[:max_chars] + " ..."
                    shrunk += 1
        return shrunk

    def replace_message(self, message_id: str, replacement: LLMMessage) -> int:
        idx = self._ids.index(message_id)
        self._messages[idx] = replacement
        self._versions[message_id] += 1
        self._token_counts.pop(message_id, None)
        return self._versions[message_id]

    def remove(self, message_ids: Sequence[str]) -> List[LLMMessage]:
        doomed = set(message_ids)
        kept_ids: List[str] = []
        kept: List[LLMMessage] = []
        removed: List[LLMMessage] = []
        for mid, message in zip(self._ids, self._messages):
            if mid in doomed:
                removed.append(message)
            else:
                kept_ids.append(mid)
                kept.append(message)
        self._ids, self._messages = kept_ids, kept
        return removed

    async def clear(self) -> None:
        await super().clear()
        self._ids = []

    async def save_state(self) -> Mapping[str, Any]:
        state = dict(await super().save_state())
        state["ids"] = list(self._ids)
        state["versions"] = dict(self._versions)
        return state

    async def load_state(self, state: Mapping[str, Any]) -> None:
        await super().load_state(state)
        self._ids = list(state.get("ids") or [uuid.uuid4().hex[:8] for _ in self._messages])
        self._versions = {mid: int(state.get("versions", {}).get(mid, 1)) for mid in self._ids}
        self._token_counts.clear()
        self._counts_by_version.clear()


class CriticContext(UnboundedChatCompletionContext):
    """Context for the critic: it only needs the system prompt and the last few turns."""

    def __init__(self, keep_last: int = 8, initial_messages: List[LLMMessage] | None = None) -> None:
        super().__init__(initial_messages)
        self._keep_last = keep_last

    async def get_messages(self) -> List[LLMMessage]:
        messages = await super().get_messages()
        system = [m for m in messages if isinstance(m, SystemMessage)]
        rest = [m for m in messages if not isinstance(m, SystemMessage)][-self._keep_last :]
        while rest and isinstance(rest[0], FunctionExecutionResultMessage):
            rest = rest[1:]
        return system + rest


def truncated_result(message: FunctionExecutionResultMessage, max_chars: int) -> FunctionExecutionResultMessage:
    return FunctionExecutionResultMessage(
        content=[
            FunctionExecutionResult(
                content=r.content if len(r.content) <= max_chars else r.content[:max_chars] + " ...",
                name=r.name,
                call_id=r.call_id,
                is_error=r.is_error,
            )
            for r in message.content
        ]
    )


def as_user_note(text: str, source: str = "notes") -> UserMessage:
    return UserMessage(content=text, source=source)
