"""HTTP/UI glue: response payloads, the chat panel model and transcript views."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from haystack.dataclasses import ChatMessage

from .spans import MESSAGE_ID_KEY

MAX_PREVIEW = 280


@dataclass
class ChatPanel:
    """State of the chat widget rendered in the support console."""

    id: str
    text: str = ""
    placeholder: str = "Ask a question..."
    collapsed: bool = False
    badges: list[str] = field(default_factory=list)

    def show_typing(self) -> None:
        self.text = "Assistant is typing..."

    def show_reply(self, reply: str) -> None:
        self.text = reply
        self.collapsed = False


def to_response(message: ChatMessage, citations: list[dict]) -> dict[str, Any]:
    payload = {
        "id": message.meta.get(MESSAGE_ID_KEY),
        "content": message.text or "",
        "citations": citations,
    }
    if len(payload["content"]) > MAX_PREVIEW:
        payload["content"] = payload["content"][:MAX_PREVIEW] + "..."
        payload["truncated"] = True
    return payload


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")


@dataclass(frozen=True)
class TranscriptView:
    """Immutable snapshot of a transcript for the export screen."""

    items: tuple[Mapping[str, Any], ...]

    @classmethod
    def snapshot(cls, messages: list[ChatMessage]) -> "TranscriptView":
        return cls(
            items=tuple(
                MappingProxyType({"id": m.meta.get(MESSAGE_ID_KEY), "role": m.role.value, "text": m.text or ""})
                for m in messages
            )
        )

    def excerpt(self, index: int, start: int, end: int) -> str:
        text = self.items[index]["text"]
        return text[start:end]

    def search(self, needle: str) -> list[tuple[int, int, int]]:
        hits = []
        for i, item in enumerate(self.items):
            pos = item["text"].find(needle)
            if pos >= 0:
                hits.append((i, pos, pos + len(needle)))
        return hits
