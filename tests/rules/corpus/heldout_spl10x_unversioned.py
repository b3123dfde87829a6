# rules: SPL101, SPL102, SPL103, SPL104
"""Held-out: spans with an id but neither a version nor a hash (SPL103)."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from pydantic import BaseModel

EMAIL = re.compile(r"[\w.]+@[\w.]+")


@dataclass
class MemoryBlock:
    id: str
    label: str
    value: str
    limit: int = 5000


class ChatMessage(BaseModel):
    id: str
    role: str
    content: str


class Note:
    def __init__(self, id: str, text: str) -> None:
        self.id = id
        self.text = text

    def replace(self, text: str) -> None:
        self.text = text  # expect: SPL103


@dataclass
class Thread:
    id: str
    messages: list[str] = field(default_factory=list)


@dataclass
class PlainMessage:
    role: str
    content: str


class HashedNote(BaseModel):
    id: str
    content: str

    @property
    def content_hash(self) -> str:
        return str(hash(self.content))


def core_memory_replace(block: MemoryBlock, old: str, new: str) -> None:
    block.value = block.value.replace(old, new)  # expect: SPL103


def core_memory_append(block: MemoryBlock, text: str) -> None:
    block.value += "\n" + text  # expect: SPL103


def core_memory_rethink(block: MemoryBlock, new_memory: str) -> None:
    setattr(block, "value", new_memory)  # expect: SPL103


def core_memory_clear(blocks: dict[str, MemoryBlock], label: str) -> None:
    block = blocks[label]
    block.value = ""  # expect: SPL103


def core_memory_tombstone(block: MemoryBlock) -> None:
    block.value = "[removed]"


def resize_block(block: MemoryBlock, limit: int) -> None:
    block.limit = limit


def scrub_pii(messages: list[ChatMessage]) -> None:
    for m in messages:
        m.content = EMAIL.sub("<email>", m.content)  # expect: SPL103


def scrub_one(message: ChatMessage) -> None:
    message.content = EMAIL.sub("<email>", message.content)  # expect: SPL103


def truncate_tool_output(message: ChatMessage, limit: int) -> None:
    if message.role == "tool" and len(message.content) > limit:
        message.content = message.content[:limit] + "\n[truncated]"  # expect: SPL103


def force_message(message: ChatMessage, text: str) -> None:
    object.__setattr__(message, "content", text)  # expect: SPL103


def dict_message(message: ChatMessage, text: str) -> None:
    message.__dict__["content"] = text  # expect: SPL103


def copy_message_back(history: dict[str, ChatMessage], mid: str, text: str) -> None:
    message = history[mid]
    history[message.id] = message.model_copy(update={"content": text})  # expect: SPL103


def copy_message_new_id(history: dict[str, ChatMessage], mid: str, text: str, new_id: str) -> None:
    message = history[mid]
    history[new_id] = message.model_copy(update={"id": new_id, "content": text})


def new_message(text: str) -> ChatMessage:
    message = ChatMessage(id="m1", role="user", content="")
    message.content = text
    return message


def edit_note(note: Note, text: str) -> None:
    note.text = text  # expect: SPL103


def edit_notes(notes: list[Note]) -> None:
    for note in notes:
        note.text = note.text.strip()  # expect: SPL103


def thread_append(thread: Thread, text: str) -> None:
    thread.messages.append(text)  # expect: SPL103


def thread_drop_first(thread: Thread) -> None:
    del thread.messages[0]  # expect: SPL103


def thread_replace(thread: Thread, i: int, text: str) -> None:
    thread.messages[i] = text  # expect: SPL103


def thread_remove(thread: Thread, text: str) -> None:
    thread.messages.remove(text)  # expect: SPL103


def plain_message_edit(message: PlainMessage, text: str) -> None:
    message.content = text


def hashed_note_edit(note: HashedNote, text: str) -> None:
    note.content = text


def memory_blocks_copy_back(blocks: dict[str, MemoryBlock], label: str, value: str) -> None:
    block = blocks[label]
    blocks[block.id] = dataclasses.replace(block, value=value)  # expect: SPL103


async def summarize_history(history: list[ChatMessage], llm) -> None:
    for message in history[:-4]:
        message.content = await llm.summarize(message.content)  # expect: SPL103


class MemoryManager:
    def __init__(self) -> None:
        self.blocks: dict[str, MemoryBlock] = {}

    def update_block_value(self, label: str, value: str) -> None:
        block = self.blocks[label]
        block.value = value  # expect: SPL103

    def replace_label(self, label: str, new_label: str) -> None:
        block = self.blocks[label]
        block.label = new_label
