"""Per-session chat history with redaction, trimming and token accounting."""

from __future__ import annotations

import hashlib
import uuid
from typing import Sequence

from langchain_core.chat_history import InMemoryChatMessageHistory
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.messages.utils import count_tokens_approximately

from .decision_log import DecisionLog
from .transformers import EMAIL_RE, PHONE_RE


def _text(message: BaseMessage) -> str:
    return message.content if isinstance(message.content, str) else str(message.content)


def _digest(message: BaseMessage) -> str:
    return hashlib.sha1(_text(message).encode("utf-8")).hexdigest()


class SessionStore:
    def __init__(self) -> None:
        self._sessions: dict[str, InMemoryChatMessageHistory] = {}

    def history(self, session_id: str) -> InMemoryChatMessageHistory:
        return self._sessions.setdefault(session_id, InMemoryChatMessageHistory())

    def append(self, session_id: str, message: BaseMessage) -> BaseMessage:
        if message.id is None:
            message = message.model_copy(update={"id": f"msg_{uuid.uuid4().hex[:12]}"})
        self.history(session_id).add_message(message)
        return message


class TokenMeter:
    """Tracks how many tokens each message costs when replayed to the model."""

    def __init__(self) -> None:
        self._by_message: dict[str, int] = {}

    def count(self, message: BaseMessage) -> int:
        if message.id in self._by_message:
            return self._by_message[message.id]
        n = count_tokens_approximately([message])
        self._by_message[message.id] = n
        return n

    def total(self, messages: Sequence[BaseMessage]) -> int:
        return sum(self.count(m) for m in messages)


class ContentTokenMeter(TokenMeter):
    def count(self, message: BaseMessage) -> int:
        key = f"{message.id}:{_digest(message)}"
        cached = self._by_message.get(key)
        if cached is None:
            cached = self._by_message[key] = count_tokens_approximately([message])
        return cached


def scrub_history(history: InMemoryChatMessageHistory, mask: str = "[redacted]") -> int:
    """Remove contact details users pasted into the chat."""
    changed = 0
    for message in history.messages:
        if not isinstance(message, HumanMessage):
            continue
        text = _text(message)
        clean = PHONE_RE.sub(mask, EMAIL_RE.sub(mask, text))
        if clean != text:
            message.content = clean
            changed += 1
    return changed


def redact_message(
    history: InMemoryChatMessageHistory, message_id: str, log: DecisionLog, mask: str = "[redacted]"
) -> BaseMessage:
    """Replace one message by a redacted copy with its own id, keeping a pointer back."""
    for i, message in enumerate(history.messages):
        if message.id != message_id:
            continue
        text = _text(message)
        clean = PHONE_RE.sub(mask, EMAIL_RE.sub(mask, text))
        log.record(
            "redact_message",
            [message_id],
            rationale="contact details in user message",
            evidence={"sha1": _digest(message), "length": len(text)},
        )
        replacement = message.model_copy(
            update={
                "id": f"{message_id}.r1",
                "content": clean,
                "additional_kwargs": {**message.additional_kwargs, "redacts": message_id},
            }
        )
        history.messages[i] = replacement
        return replacement
    raise KeyError(message_id)


def trim_to_window(history: InMemoryChatMessageHistory, window: int, log: DecisionLog) -> list[str]:
    """Drop the oldest turns once the session exceeds its window."""
    if len(history.messages) <= window:
        return []
    dropped = history.messages[:-window]
    history.messages = history.messages[-window:]
    ids = [m.id or "" for m in dropped]
    log.record(
        "trim_history",
        ids,
        rationale=f"history exceeded window of {window} messages",
        evidence={"oldest_kept": history.messages[0].id},
    )
    return ids


def trim_with_record(history: InMemoryChatMessageHistory, window: int, log: DecisionLog) -> list[str]:
    """Drop the oldest turns, recording what went and why before touching history."""
    if len(history.messages) <= window:
        return []
    dropped = history.messages[:-window]
    ids = [m.id or "" for m in dropped]
    log.record(
        "trim_history",
        ids,
        rationale=f"history exceeded window of {window} messages",
        evidence={
            "oldest_kept": history.messages[-window].id,
            "digests": {m.id: _digest(m) for m in dropped},
        },
    )
    history.messages = history.messages[-window:]
    return ids
