from __future__ import annotations

from haystack.dataclasses import ChatMessage

from .models import content_hash, meta_of, new_span_id


class ChatMemory:
    """In-process store of ChatMessages, keyed by the span_id kept in message meta."""

    def __init__(self) -> None:
        self._messages: dict[str, ChatMessage] = {}
        self._order: list[str] = []

    def add(self, message: ChatMessage) -> str:
        sid = message.meta.get("span_id") or new_span_id()
        message.meta.update(meta_of(sid, message.text or "", message.meta.get("version", 1)))
        self._messages[sid] = message
        self._order.append(sid)
        return sid

    def get(self, span_id: str) -> ChatMessage:
        return self._messages[span_id]

    def messages(self) -> list[ChatMessage]:
        return [self._messages[s] for s in self._order if s in self._messages]

    def replace_text(self, span_id: str, new_text: str) -> None:
        old = self._messages[span_id]
        meta = dict(old.meta)
        meta["version"] = meta.get("version", 1) + 1
        meta["content_hash"] = content_hash(new_text)
        self._messages[span_id] = ChatMessage.from_user(new_text, meta=meta)

    def overwrite(self, span_id: str, new_text: str) -> None:
        old = self._messages[span_id]
        self._messages[span_id] = ChatMessage.from_assistant(new_text, meta=old.meta)

    def remove(self, span_id: str) -> None:
        self._messages.pop(span_id, None)
        self._order = [s for s in self._order if s != span_id]
