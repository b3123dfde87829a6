"""Core data types: spans are CAMEL MemoryRecords plus a few app types."""
from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from camel.memories import MemoryRecord
from camel.messages import BaseMessage
from camel.types import OpenAIBackendRole

VERSION_KEY = "version"
HASH_KEY = "content_hash"
STATE_KEY = "state"
PRODUCED_BY_KEY = "produced_by"
OFFSETS_KEY = "sentence_offsets"
EMBEDDING_KEY = "embedding_id"

_SENTENCE = re.compile(r"[^.!?]+[.!?]?")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def record_id(record: MemoryRecord) -> str:
    return str(record.uuid)


def record_version(record: MemoryRecord) -> int:
    return int(record.extra_info.get(VERSION_KEY, "0"))


def record_hash(record: MemoryRecord) -> str:
    return record.extra_info.get(HASH_KEY, "")


def sentence_offsets(text: str) -> List[Tuple[int, int]]:
    return [(m.start(), m.end()) for m in _SENTENCE.finditer(text) if m.group().strip()]


def stamp(record: MemoryRecord, produced_by: str = "ingest") -> MemoryRecord:
    info = record.extra_info
    info.setdefault(VERSION_KEY, "0")
    info[HASH_KEY] = digest(record.message.content)
    info.setdefault(PRODUCED_BY_KEY, produced_by)
    info.setdefault(STATE_KEY, "live")
    info.setdefault(OFFSETS_KEY, json.dumps(sentence_offsets(record.message.content)))
    return record


def make_record(
    content: str,
    role: OpenAIBackendRole = OpenAIBackendRole.USER,
    role_name: str = "user",
    produced_by: str = "ingest",
    agent_id: str = "",
) -> MemoryRecord:
    if role == OpenAIBackendRole.ASSISTANT:
        message = BaseMessage.make_assistant_message(role_name=role_name, content=content)
    else:
        message = BaseMessage.make_user_message(role_name=role_name, content=content)
    record = MemoryRecord(message=message, role_at_backend=role, agent_id=agent_id)
    return stamp(record, produced_by)


@dataclass(frozen=True)
class SpanKey:
    span_id: str
    version: int
    content_hash: str

    @classmethod
    def of(cls, record: MemoryRecord) -> "SpanKey":
        return cls(record_id(record), record_version(record), record_hash(record))


@dataclass
class OffsetMap:
    span_id: str
    token_offsets: List[Tuple[int, int]]
    built_at: float = field(default_factory=time.time)


@dataclass
class Citation:
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int
    quote: str


@dataclass
class Note:
    note_id: str
    text: str
    tags: List[str] = field(default_factory=list)
    pinned: bool = False


@dataclass
class Summary:
    summary_id: str
    text: str
    source_ids: List[str]
    parent_id: Optional[str] = None
    depth: int = 0
    created_at: float = field(default_factory=time.time)


@dataclass
class Tombstone:
    span_id: str
    replaced_by: Optional[str]
    created_at: float
    original: Dict[str, Any]
