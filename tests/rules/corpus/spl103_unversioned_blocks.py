# rules: SPL101, SPL102, SPL103, SPL104
"""Letta-style memory blocks and chat messages: an id, content, and nothing to notice a rewrite."""
import uuid
from dataclasses import dataclass
from typing import List, Optional

from pydantic import BaseModel


class Block(BaseModel):
    id: str
    label: str
    value: str
    limit: int = 2000


class Memory(BaseModel):
    blocks: List[Block]

    def update_block_value(self, label: str, value: str) -> None:
        for block in self.blocks:
            if block.label == label:
                block.value = value  # expect: SPL103
                return
        raise ValueError(label)

    def get_block(self, label: str) -> Optional[Block]:
        return next((b for b in self.blocks if b.label == label), None)

    def append_to_block(self, label: str, text: str) -> None:
        block = self.get_block(label)
        block.value += "\n" + text  # expect: SPL103


@dataclass
class ChatMessage:
    id: str
    role: str
    content: str


class Message:
    def __init__(self, id, role, content):
        self.id = id
        self.role = role
        self.content = content


def scrub_messages(messages: List[ChatMessage], pattern) -> None:
    for message in messages:
        message.content = pattern.sub("", message.content)  # expect: SPL103


def scrub_plain(message: Message, pattern) -> None:
    message.content = pattern.sub("", message.content)  # expect: SPL103


async def strip_reasoning(messages: list[Message]) -> None:
    for m in messages:
        if m.role == "assistant":
            m.content = m.content.split("</think>")[-1]  # expect: SPL103


def rekeyed(message: ChatMessage, text: str) -> None:
    message.content = text
    message.id = str(uuid.uuid4())


def copy_on_rewrite(message: ChatMessage, text: str) -> ChatMessage:
    return ChatMessage(id=str(uuid.uuid4()), role=message.role, content=text)


def prune(message: ChatMessage) -> None:
    message.content = "[pruned]"


def merge_adjacent(messages: List[ChatMessage]) -> List[ChatMessage]:
    for i in reversed(range(len(messages) - 1)):
        if messages[i].role == messages[i + 1].role:
            messages[i].content = messages[i].content + messages[i + 1].content  # expect: SPL103
            del messages[i + 1]
    return messages


def relabel(block: Block, label: str) -> None:
    block.label = label


class Settings(BaseModel):
    id: str
    value: str

    def set_value(self, value):
        self.value = value
