"""Token accounting for the chat context window."""

from __future__ import annotations

import re

from haystack.dataclasses import ChatMessage

from .spans import MESSAGE_ID_KEY, content_hash

_TOKEN_RX = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    return len(_TOKEN_RX.findall(text))


class TokenLedger:
    def __init__(self) -> None:
        self._counts: dict[str, int] = {}

    def count(self, msg: ChatMessage) -> int:
        mid = msg.meta[MESSAGE_ID_KEY]
        if mid not in self._counts:
            self._counts[mid] = count_tokens(msg.text or "")
        return self._counts[mid]

    def total(self, messages: list[ChatMessage]) -> int:
        return sum(self.count(m) for m in messages)


class HashedTokenLedger:
    def __init__(self) -> None:
        self._counts: dict[tuple[str, str], int] = {}

    def count(self, msg: ChatMessage) -> int:
        key = (msg.meta[MESSAGE_ID_KEY], content_hash(msg.text))
        if key not in self._counts:
            self._counts[key] = count_tokens(msg.text or "")
        return self._counts[key]

    def total(self, messages: list[ChatMessage]) -> int:
        return sum(self.count(m) for m in messages)
