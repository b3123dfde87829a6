"""Working-context store: the agent's message list plus pinned notes and retrieved chunks."""

from __future__ import annotations

import copy
import time
import uuid
from collections import defaultdict
from typing import Any, Iterable, Iterator

from strands import Agent
from strands.types.content import ContentBlock, Message, Messages

from .models import KnowledgeChunk, NoteSpan, digest

SPAN_VERSION = "span_version"
CONTENT_HASH = "content_hash"


def span_meta(message: Message) -> dict[str, Any]:
    """The app's bookkeeping lives in metadata.custom, which Strands strips before model calls."""
    metadata = message.setdefault("metadata", {})
    return metadata.setdefault("custom", {})


def text_of(message: Message) -> str:
    parts: list[str] = []
    for block in message.get("content", []):
        if "text" in block:
            parts.append(block["text"])
        elif "toolResult" in block:
            parts.extend(c["text"] for c in block["toolResult"].get("content", []) if "text" in c)
    return "\n".join(parts)


def version_of(message: Message) -> int:
    return int(span_meta(message).get(SPAN_VERSION, 0))


def hash_of(message: Message) -> str:
    meta = span_meta(message)
    if CONTENT_HASH not in meta:
        meta[CONTENT_HASH] = digest(text_of(message))
    return meta[CONTENT_HASH]


def stamp(message: Message) -> None:
    meta = span_meta(message)
    meta[SPAN_VERSION] = int(meta.get(SPAN_VERSION, 0)) + 1
    meta[CONTENT_HASH] = digest(text_of(message))


def set_text(message: Message, new_text: str, op: str) -> Message:
    message["content"] = [ContentBlock(text=new_text)]
    stamp(message)
    span_meta(message)["produced_by"] = f"rewrite:{op}"
    return message


class ContextBuffer:
    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.notes: dict[str, NoteSpan] = {}
        self.chunks: dict[str, KnowledgeChunk] = {}
        self.tombstones: dict[str, Message] = {}
        self._holders: dict[str, set[str]] = defaultdict(set)

    @property
    def messages(self) -> Messages:
        return self.agent.messages

    def __iter__(self) -> Iterator[Message]:
        return iter(self.agent.messages)

    def get(self, tracking_id: str) -> Message | None:
        for message in self.agent.messages:
            if message.get("tracking_id") == tracking_id:
                return message
        return self.tombstones.get(tracking_id)

    def index_of(self, tracking_id: str) -> int:
        for i, message in enumerate(self.agent.messages):
            if message.get("tracking_id") == tracking_id:
                return i
        raise KeyError(tracking_id)

    def add_note(self, note: NoteSpan) -> None:
        self.notes[note.span_id] = note

    def add_chunks(self, chunks: Iterable[KnowledgeChunk]) -> None:
        for chunk in chunks:
            self.chunks[chunk.chunk_id] = chunk

    def hold(self, span_id: str, holder: str) -> None:
        self._holders[span_id].add(holder)

    def release(self, span_id: str, holder: str) -> None:
        self._holders[span_id].discard(holder)

    def holders_of(self, span_id: str) -> set[str]:
        return set(self._holders.get(span_id, ()))

    def rewrite_as_new(self, tracking_id: str, new_text: str, op: str) -> Message:
        idx = self.index_of(tracking_id)
        old = self.agent.messages[idx]
        fresh: Message = {"role": old["role"], "content": [ContentBlock(text=new_text)]}
        fresh["tracking_id"] = str(uuid.uuid4())
        meta = span_meta(fresh)
        meta[SPAN_VERSION] = 0
        meta[CONTENT_HASH] = digest(new_text)
        meta["derived_from"] = tracking_id
        meta["produced_by"] = f"rewrite:{op}"
        tomb = copy.deepcopy(old)
        span_meta(tomb)["superseded_by"] = fresh["tracking_id"]
        span_meta(tomb)["tombstoned_at"] = time.time()
        self.tombstones[tracking_id] = tomb
        self.agent.messages[idx] = fresh
        return fresh

    def retire(self, messages: Iterable[Message]) -> None:
        now = time.time()
        for message in messages:
            span_meta(message).setdefault("tombstoned_at", now)
            self.tombstones[message["tracking_id"]] = message

    def remove(self, tracking_ids: Iterable[str]) -> list[Message]:
        doomed = set(tracking_ids)
        kept: Messages = []
        removed: Messages = []
        for message in self.agent.messages:
            (removed if message.get("tracking_id") in doomed else kept).append(message)
        self.agent.messages[:] = kept
        return removed
