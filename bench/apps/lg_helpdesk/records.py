from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import datetime, timezone
from typing import Any

from langgraph.store.base import Item


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def utcnow() -> str:
    return datetime.now(timezone.utc).isoformat()


@dataclass
class MemoryRecord:
    """A long-term fact or preference about a customer (value of a store item)."""

    memory_id: str
    text: str
    kind: str = "fact"
    version: int = 1
    content_hash: str = ""
    source_message_ids: list[str] = field(default_factory=list)
    created_at: str = field(default_factory=utcnow)
    updated_at: str = field(default_factory=utcnow)

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.text)

    @classmethod
    def from_item(cls, item: Item) -> MemoryRecord:
        names = {f.name for f in fields(cls)}
        values = {k: v for k, v in item.value.items() if k in names}
        values.setdefault("memory_id", item.key)
        return cls(**values)

    def to_value(self) -> dict[str, Any]:
        return asdict(self)

    def amend(self, text: str, *, source_ids: list[str] | None = None) -> None:
        self.text = text.strip()
        self.version += 1
        self.updated_at = utcnow()
        if source_ids:
            self.source_message_ids.extend(i for i in source_ids if i not in self.source_message_ids)

    def revised(self, text: str, *, source_ids: list[str] | None = None) -> MemoryRecord:
        text = text.strip()
        return replace(
            self,
            text=text,
            version=self.version + 1,
            content_hash=digest(text),
            source_message_ids=[*self.source_message_ids, *(source_ids or [])],
            updated_at=utcnow(),
        )


def bump(value: dict[str, Any], text: str) -> dict[str, Any]:
    """Return a copy of a stored memory value carrying new text."""
    out = dict(value)
    out["text"] = text
    out["version"] = int(value.get("version", 1)) + 1
    out["content_hash"] = digest(text)
    out["updated_at"] = utcnow()
    return out


@dataclass(frozen=True)
class GroundingRef:
    """Points an answer sentence at a character range of a memory or article."""

    source_id: str
    version: int
    content_hash: str
    start: int
    end: int

    @classmethod
    def for_record(cls, record: MemoryRecord, start: int, end: int) -> GroundingRef:
        return cls(record.memory_id, record.version, record.content_hash, start, end)


class StaleGroundingError(LookupError):
    pass
