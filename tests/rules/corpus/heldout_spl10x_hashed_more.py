# rules: SPL101, SPL102, SPL103, SPL104
"""Held-out: more hashed spans (SPL102) — pydantic, NamedTuple, message lists, setters, flow."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import NamedTuple

from pydantic import BaseModel


def sha(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


class SealedMessage(BaseModel):
    message_id: str
    content: str
    digest: str = ""


class HashedPassage(NamedTuple):
    id: str
    text: str
    checksum: str


@dataclass
class Conversation:
    id: str
    messages: list[str] = field(default_factory=list)
    content_hash: str = ""


class Card:
    def __init__(self, id: str, body: str) -> None:
        self.id = id
        self.body = body
        self.hash = sha(body)

    def edit(self, body: str) -> None:
        self.body = body  # expect: SPL102

    def edit_sealed(self, body: str) -> None:
        self.body = body
        self.hash = sha(body)


def seal_edit(message: SealedMessage, text: str) -> None:
    message.content = text  # expect: SPL102


def seal_edit_ok(message: SealedMessage, text: str) -> None:
    message.content = text
    message.digest = sha(text)


def seal_copy_back(history: dict[str, SealedMessage], mid: str, text: str) -> None:
    message = history[mid]
    history[message.message_id] = message.model_copy(update={"content": text})  # expect: SPL102


def seal_copy_back_ok(history: dict[str, SealedMessage], mid: str, text: str) -> None:
    message = history[mid]
    history[message.message_id] = message.model_copy(update={"content": text, "digest": sha(text)})


def passage_copy_back(passages: dict[str, HashedPassage], pid: str, text: str) -> None:
    passage = passages[pid]
    passages[passage.id] = passage._replace(text=text)  # expect: SPL102


def passage_copy_back_ok(passages: dict[str, HashedPassage], pid: str, text: str) -> None:
    passage = passages[pid]
    passages[passage.id] = passage._replace(text=text, checksum=sha(text))


def conversation_append(conversation: Conversation, text: str) -> None:
    conversation.messages.append(text)  # expect: SPL102


def conversation_pop(conversation: Conversation) -> str:
    last = conversation.messages.pop()
    conversation.content_hash = sha("".join(conversation.messages)) if conversation.messages else ""
    return last


def conversation_delete(conversation: Conversation, i: int) -> None:
    del conversation.messages[i]  # expect: SPL102


def conversation_delete_ok(conversation: Conversation, i: int) -> None:
    del conversation.messages[i]
    conversation.content_hash = sha("".join(conversation.messages))


def conversation_edit(conversation: Conversation, i: int, text: str) -> None:
    conversation.messages[i] = text  # expect: SPL102


def conversation_edit_ok(conversation: Conversation, i: int, text: str) -> None:
    conversation.messages[i] = text
    conversation.rehash()


def card_edit(card: Card, text: str) -> None:
    card.body = text  # expect: SPL102


def cards_edit(cards: list[Card]) -> None:
    for card in cards:
        card.body = card.body.strip()  # expect: SPL102


def card_edit_ok(card: Card, text: str) -> None:
    card.body = text
    card.hash = sha(text)


def card_edit_return_before_hash(card: Card, text: str, dry: bool) -> None:
    card.body = text  # expect: SPL102
    if dry:
        return
    card.hash = sha(text)


def card_edit_loop_then_hash(cards: list[Card]) -> None:
    for card in cards:
        card.body = card.body.upper()
        card.hash = sha(card.body)


def message_setter(message: SealedMessage, text: str) -> None:
    message.set_content(text)  # expect: SPL102


def message_setter_ok(message: SealedMessage, text: str) -> None:
    message.set_content(text)
    message.update_hash()


def message_walrus(messages: list[SealedMessage]) -> None:
    for message in messages:
        if (stripped := message.content.strip()) != message.content:
            message.content = stripped  # expect: SPL102


def message_match(message: SealedMessage, action: str) -> None:
    match action:
        case "upper":
            message.content = message.content.upper()
            message.digest = sha(message.content)
        case "lower":
            message.content = message.content.lower()  # expect: SPL102


def message_tombstone(message: SealedMessage) -> None:
    message.content = "<tombstone>"


def sealed_fresh(text: str) -> SealedMessage:
    message = SealedMessage(message_id="x", content="")
    message.content = text
    return message


def verify(message: SealedMessage) -> bool:
    return message.digest == sha(message.content)
