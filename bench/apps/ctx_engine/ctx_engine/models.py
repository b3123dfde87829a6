"""Core records for the context engine."""
import hashlib
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Optional, Protocol

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, model_validator


def fingerprint(text: str) -> str:
    """Short content digest; stable across processes."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


class Origin(str, Enum):
    INGEST = "ingest"
    TOOL = "tool"
    SUMMARY = "summary"
    REDACTED = "redacted"
    COMPRESSED = "compressed"


class Segment(BaseModel):
    """One addressable slice of the agent's working context."""

    model_config = ConfigDict(extra="forbid")

    seg_id: str
    body: str
    rev: NonNegativeInt = 0
    digest: str = ""
    origin: Origin = Origin.INGEST
    embedding: Optional[list[float]] = None
    derived_from: list[str] = Field(default_factory=list)
    pinned: bool = False
    tombstoned_at: Optional[float] = None
    created_at: float = Field(default_factory=time.time)

    @model_validator(mode="after")
    def _fill_digest(self) -> "Segment":
        if not self.digest:
            self.digest = fingerprint(self.body)
        return self

    @property
    def live(self) -> bool:
        return self.tombstoned_at is None

    def token_estimate(self) -> int:
        return max(1, len(self.body) // 4)


@dataclass
class Turn:
    """A raw conversational turn as received from the chat front end."""

    turn_id: str
    speaker: str
    text: str
    at: float = field(default_factory=time.time)


class Completer(Protocol):
    """Anything that can turn a prompt into text (our LLM gateway client)."""

    async def complete(self, prompt: str, *, max_tokens: int = 512) -> str: ...


class Embedder(Protocol):
    def embed(self, text: str) -> list[float]: ...
