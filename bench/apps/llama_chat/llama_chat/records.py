"""Records the chat backend keeps about turns, edits, sources and summaries."""

import hashlib
import time
from dataclasses import dataclass, field
from typing import List, Optional, Tuple, TypedDict

from llama_index.core.llms import ChatMessage, MessageRole


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class TurnSpan:
    """One turn of the conversation as held in the session transcript."""

    span_id: str
    message: ChatMessage
    version: int = 0
    content_hash: str = ""
    produced_by: str = "user"
    sentence_offsets: List[Tuple[int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.text)

    @property
    def text(self) -> str:
        return self.message.content or ""

    @property
    def role(self) -> MessageRole:
        return self.message.role

    def key(self) -> Tuple[str, int, str]:
        return (self.span_id, self.version, self.content_hash)


@dataclass
class Tombstone:
    span_id: str
    replaced_by: Optional[str]
    reason: str
    buried_at: float = field(default_factory=time.time)


@dataclass(frozen=True)
class DecisionEntry:
    seq: int
    action: str
    span_ids: Tuple[str, ...]
    rationale: str
    at: float


class SourceRef(TypedDict):
    node_id: str
    score: float
    start: int
    end: int


@dataclass(frozen=True)
class Citation:
    node_id: str
    node_hash: str
    start: int
    end: int
    label: str


@dataclass
class SummaryRecord:
    summary_id: str
    text: str
    source_span_ids: List[str]
    parent_summary_id: Optional[str] = None
