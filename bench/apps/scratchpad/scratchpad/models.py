"""Data model of the context window."""

from __future__ import annotations

import hashlib
import time
import uuid
from dataclasses import dataclass, field
from typing import Optional

from pydantic import BaseModel, Field


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_id(prefix: str = "seg") -> str:
    return f"{prefix}_{uuid.uuid4().hex[:12]}"


@dataclass
class Segment:
    """One piece of the agent's working context (a tool result, a note, a plan step)."""

    seg_id: str
    body: str
    kind: str = "note"
    rev: int = 0
    digest: str = ""
    embedding: Optional[list[float]] = None
    token_offsets: list[tuple[int, int]] = field(default_factory=list)
    created_at: float = field(default_factory=time.time)
    tombstoned_at: Optional[float] = None
    parents: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.digest:
            self.digest = digest(self.body)

    @property
    def tombstoned(self) -> bool:
        return self.tombstoned_at is not None


class Turn(BaseModel):
    """A user/assistant turn as the API layer receives it."""

    turn_id: str
    role: str
    text: str
    version: int = 1
    sha: str = ""
    meta: dict = Field(default_factory=dict)


@dataclass(frozen=True)
class ExcerptRef:
    seg_id: str
    rev: int
    digest: str
    start: int
    end: int


@dataclass
class Quote:
    seg_id: str
    start: int
    end: int
    label: str = ""


@dataclass
class PanelLabel:
    """A label in the debug UI; not a segment."""

    key: str
    text: str
    tooltip: str = ""
