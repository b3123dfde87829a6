"""Conversation memory: an ordered list of Haystack ChatMessages with bookkeeping in meta."""

from __future__ import annotations

import re
import uuid
from typing import Iterator

from haystack.dataclasses import ChatMessage, ChatRole, TextContent

from .decision_log import DecisionLog
from .spans import MESSAGE_ID_KEY, content_hash
from .token_budget import HashedTokenLedger, count_tokens

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_CARD = re.compile(r"\b(?:\d[ -]?){13,16}\b")


class ChatMemory:
    def __init__(self, log: DecisionLog) -> None:
        self.log = log
        self._messages: list[ChatMessage] = []
        self._archive: dict[str, ChatMessage] = {}
        self._turn = 0
        self.ledger = HashedTokenLedger()

    def add(self, msg: ChatMessage) -> ChatMessage:
        if msg.is_from(ChatRole.USER):
            self._turn += 1
        msg.meta.setdefault(MESSAGE_ID_KEY, f"msg-{uuid.uuid4().hex[:12]}")
        msg.meta.setdefault("turn", self._turn)
        msg.meta["token_count"] = count_tokens(msg.text or "")
        self._messages.append(msg)
        return msg

    def __iter__(self) -> Iterator[ChatMessage]:
        return iter(list(self._messages))

    def __len__(self) -> int:
        return len(self._messages)

    def find(self, message_id: str) -> ChatMessage | None:
        for msg in self._messages:
            if msg.meta.get(MESSAGE_ID_KEY) == message_id:
                return msg
        return self._archive.get(message_id)

    def scrub_pii(self) -> int:
        scrubbed = 0
        for msg in self._messages:
            text = msg.text
            if not text:
                continue
            cleaned = _CARD.sub("[card]", _EMAIL.sub("[email]", text))
            if cleaned != text:
                msg._content = [TextContent(text=cleaned)]
                scrubbed += 1
        return scrubbed

    def scrub_pii_copy(self) -> int:
        scrubbed = 0
        for idx, msg in enumerate(self._messages):
            text = msg.text
            if not text:
                continue
            cleaned = _CARD.sub("[card]", _EMAIL.sub("[email]", text))
            if cleaned == text:
                continue
            old_id = msg.meta[MESSAGE_ID_KEY]
            replacement = ChatMessage(
                _role=msg.role,
                _content=[TextContent(text=cleaned)],
                _name=msg.name,
                _meta={
                    MESSAGE_ID_KEY: f"msg-{uuid.uuid4().hex[:12]}",
                    "turn": msg.meta.get("turn"),
                    "supersedes": {"id": old_id, "hash": content_hash(text)},
                    "token_count": count_tokens(cleaned),
                },
            )
            self._archive[old_id] = msg
            self._messages[idx] = replacement
            self.log.record("scrub", [old_id, replacement.meta[MESSAGE_ID_KEY]], "pii patterns matched")
            scrubbed += 1
        return scrubbed

    def compress_tool_output(self, message_id: str, max_chars: int = 400) -> bool:
        for idx, old in enumerate(self._messages):
            if old.meta.get(MESSAGE_ID_KEY) != message_id:
                continue
            text = old.text or ""
            if len(text) <= max_chars:
                return False
            short = text[: max_chars - 20].rstrip() + " ...[truncated]"
            self._messages[idx] = ChatMessage.from_assistant(short, meta=dict(old.meta))
            return True
        return False

    def total_tokens(self) -> int:
        return self.ledger.total(self._messages)

    def trim(self, max_tokens: int) -> list[ChatMessage]:
        dropped: list[ChatMessage] = []
        while len(self._messages) > 1 and self.total_tokens() > max_tokens:
            if self._messages[0].is_from(ChatRole.SYSTEM):
                dropped.append(self._messages.pop(1))
            else:
                dropped.append(self._messages.pop(0))
        if dropped:
            self.log.record(
                "trim",
                [m.meta[MESSAGE_ID_KEY] for m in dropped],
                f"context over budget ({max_tokens} tokens)",
            )
        return dropped

    def trim_logged(self, max_tokens: int) -> list[ChatMessage]:
        victims: list[ChatMessage] = []
        running = self.total_tokens()
        for msg in self._messages:
            if running <= max_tokens:
                break
            if msg.is_from(ChatRole.SYSTEM):
                continue
            victims.append(msg)
            running -= self.ledger.count(msg)
        if not victims:
            return []
        victim_ids = {m.meta[MESSAGE_ID_KEY] for m in victims}
        self.log.record(
            "trim",
            sorted(victim_ids),
            f"context over budget ({max_tokens} tokens)",
            evidence={mid: content_hash(self.find(mid).text) for mid in victim_ids},
        )
        for msg in victims:
            self._archive[msg.meta[MESSAGE_ID_KEY]] = msg
        self._messages = [m for m in self._messages if m.meta[MESSAGE_ID_KEY] not in victim_ids]
        return victims
