import hashlib
from dataclasses import dataclass, field
from typing import List, Optional
import time


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Span:
    span_id: str
    content: str
    version: int = 1
    hash: str = ""
    source: str = "user"
    tombstoned: bool = False
    tombstoned_at: Optional[float] = None
    parents: List[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.hash:
            self.hash = content_hash(self.content)


@dataclass
class Note:
    note_id: str
    body: str


@dataclass
class Citation:
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int


@dataclass
class OffsetMap:
    span_id: str
    offsets: List[int]


@dataclass
class Decision:
    action: str
    span_ids: List[str]
    reason: str
    at: float = field(default_factory=time.time)
