"""Schemas and records for the context buffer.

The span itself is the framework's ``Message`` (from ``atomic_agents.context``);
its ``content`` is one of the IO schemas below.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import Optional

from pydantic import Field

from atomic_agents import BaseIOSchema


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class SpanBody(BaseIOSchema):
    """A unit of retained context: a source excerpt, a tool transcript, or a note."""

    span_id: str = Field(..., description="Stable identifier of the span")
    text: str = Field(..., description="Text of the span")
    version: int = Field(0, description="Incremented on every change to text")
    content_hash: str = Field("", description="sha256 of text")
    produced_by: str = Field("ingest", description="Operator that produced the current text")
    tombstoned: bool = Field(False, description="Superseded but still readable")
    tombstoned_at: Optional[float] = Field(None, description="When the span was superseded")
    superseded_by: Optional[str] = Field(None, description="Span id of the replacement")
    created_at: float = Field(default_factory=time.time, description="Creation time")

    def model_post_init(self, __context) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.text)


class SummaryBody(BaseIOSchema):
    """A summary span with the span ids it was derived from."""

    span_id: str = Field(..., description="Identifier of the summary span")
    text: str = Field(..., description="Summary text")
    version: int = Field(0, description="Incremented on every change to text")
    content_hash: str = Field("", description="sha256 of text")
    source_ids: list[str] = Field(default_factory=list, description="Spans the summary was derived from")
    root_ids: list[str] = Field(default_factory=list, description="Original ingest spans at the root of the chain")
    generation: int = Field(1, description="1 when derived directly from sources")

    def model_post_init(self, __context) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.text)


class ToolNote(BaseIOSchema):
    """A note produced by a tool call and kept in the history."""

    note_id: str = Field(..., description="Identifier of the note")
    tool_name: str = Field(..., description="Tool that produced the note")
    body: str = Field(..., description="Note text")


class SummaryRequest(BaseIOSchema):
    """Input to the summarizer agent."""

    instruction: str = Field(..., description="What to produce")
    passages: list[str] = Field(..., description="Passages to summarize")


class SummaryResponse(BaseIOSchema):
    """Output of the summarizer agent."""

    summary: str = Field(..., description="A faithful summary of the passages")


class QuestionInput(BaseIOSchema):
    """A user question to the research assistant."""

    question: str = Field(..., description="The user's question")


class AnswerOutput(BaseIOSchema):
    """An answer with the span ids it cites."""

    answer: str = Field(..., description="The answer")
    cited_span_ids: list[str] = Field(default_factory=list, description="Span ids supporting the answer")


@dataclass
class IndexedSpan:
    """A span held by the retrieval index together with what was derived from it."""

    span_id: str
    text: str
    version: int = 0
    content_hash: str = ""
    embedding: Optional[list[float]] = None
    sentence_offsets: list[tuple[int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.text)


@dataclass(frozen=True)
class OffsetMap:
    span_id: str
    version: int
    content_hash: str
    offsets: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Citation:
    span_id: str
    start: int
    end: int
    quote: str


@dataclass(frozen=True)
class VerifiedCitation:
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int


@dataclass(frozen=True)
class DecisionEntry:
    edit_id: str
    action: str
    span_ids: tuple[str, ...]
    rationale: str
    evidence: tuple[tuple[str, int, str], ...]
    at: float = field(default_factory=time.time)
