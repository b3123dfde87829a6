"""The application's own record types for the context buffer."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field

from smolagents.memory import ActionStep, MemoryStep, PlanningStep, TaskStep


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class ContextSpan:
    span_id: str
    content: str
    version: int = 0
    content_hash: str = ""
    produced_by: str = "ingest"
    source_step: int | None = None
    embedding: list[float] | None = None
    sentence_offsets: list[tuple[int, int]] = field(default_factory=list)
    derived_from: tuple[str, ...] = ()
    created_at: float = field(default_factory=time.time)
    tombstoned_at: float | None = None

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.content)

    @property
    def ref(self) -> "SpanRef":
        return SpanRef(self.span_id, self.version, self.content_hash)

    @property
    def is_tombstoned(self) -> bool:
        return self.tombstoned_at is not None


@dataclass(frozen=True)
class SpanRef:
    span_id: str
    version: int
    content_hash: str


@dataclass
class Note:
    note_id: str
    text: str
    author: str = "agent"


@dataclass
class OffsetMap:
    span_id: str
    version: int
    sentences: list[tuple[int, int]]


@dataclass(frozen=True)
class StepStamp:
    step_number: int
    version: int
    content_hash: str


def step_text(step: MemoryStep) -> str:
    if isinstance(step, TaskStep):
        return step.task
    if isinstance(step, PlanningStep):
        return step.plan
    if isinstance(step, ActionStep):
        return step.observations or ""
    return ""


def span_from_step(step: MemoryStep, index: int) -> ContextSpan:
    number = getattr(step, "step_number", None)
    kind = type(step).__name__.removesuffix("Step").lower()
    return ContextSpan(
        span_id=f"{kind}-{number if number is not None else index}",
        content=step_text(step),
        source_step=number,
    )
