"""Records held in the desk context buffer and the artifacts derived from them."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from agents import TResponseInputItem

Role = Literal["user", "assistant", "system", "developer"]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def item_text(item: TResponseInputItem) -> str:
    """Flatten the text of an input item (easy message, output message or tool output)."""
    if not isinstance(item, dict):
        return ""
    if item.get("type") == "function_call_output":
        output = item.get("output", "")
        return output if isinstance(output, str) else str(output)
    content: Any = item.get("content", "")
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for part in content or []:
        if isinstance(part, dict) and "text" in part:
            parts.append(str(part["text"]))
    return "".join(parts)


@dataclass
class DeskSpan:
    span_id: str
    content: str
    role: Role = "user"
    version: int = 0
    content_hash: str = ""
    produced_by: str = "ingest"
    embedding: list[float] | None = None
    sentence_offsets: list[tuple[int, int]] = field(default_factory=list)
    created_at: float = field(default_factory=time.time)
    tombstoned_at: float | None = None
    superseded_by: str | None = None

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.content)

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.span_id, self.version, self.content_hash)

    @property
    def is_live(self) -> bool:
        return self.tombstoned_at is None

    def to_input_item(self) -> TResponseInputItem:
        return {"role": self.role, "content": self.content}

    @classmethod
    def from_input_item(cls, span_id: str, item: TResponseInputItem) -> "DeskSpan":
        role = item.get("role", "assistant") if isinstance(item, dict) else "assistant"
        if role not in ("user", "assistant", "system", "developer"):
            role = "assistant"
        return cls(span_id=span_id, content=item_text(item), role=role)


@dataclass
class AgentNote:
    note_id: str
    ticket_id: str
    text: str
    author: str = "triage"


@dataclass
class SentenceIndex:
    span_id: str
    bounds: list[tuple[int, int]]


@dataclass(frozen=True)
class StampedOffsets:
    span_id: str
    version: int
    content_hash: str
    bounds: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Citation:
    citation_id: str
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int


@dataclass(frozen=True)
class Decision:
    decision_id: str
    action: str
    span_ids: tuple[str, ...]
    rationale: str
    evidence: tuple[str, ...] = ()
    at: float = field(default_factory=time.time)


@dataclass
class TicketRow:
    id: int
    subject: str
    status: str
    assignee: str | None = None
    updated_at: float = field(default_factory=time.time)


class StaleArtifactError(RuntimeError):
    """A derived artifact no longer matches the span it was built from."""
