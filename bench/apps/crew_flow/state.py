"""Structured state for the research flow."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Literal
from uuid import uuid4

from pydantic import BaseModel, Field

from crew_flow.spans import ContextSpan


def _utcnow() -> datetime:
    return datetime.now(timezone.utc)


class ChatTurn(BaseModel):
    id: str = Field(default_factory=lambda: f"turn_{uuid4().hex[:10]}")
    role: Literal["user", "assistant", "tool"] = "user"
    text: str
    at: datetime = Field(default_factory=_utcnow)


class DecisionEntry(BaseModel, frozen=True):
    edit_id: str
    op: Literal["prune", "rewrite", "summarize", "gc", "retire"]
    rationale: str
    span_ids: tuple[str, ...] = ()
    evidence_hashes: tuple[str, ...] = ()
    at: datetime = Field(default_factory=_utcnow)


class SummaryRecord(BaseModel):
    id: str = Field(default_factory=lambda: f"sum_{uuid4().hex[:10]}")
    text: str
    source_ids: list[str] = Field(default_factory=list)
    parent_id: str | None = None
    generation: int = 0


class ResearchState(BaseModel):
    question: str = ""
    turn: int = 0
    spans: list[ContextSpan] = Field(default_factory=list)
    turns: list[ChatTurn] = Field(default_factory=list)
    running_summary: str = ""
    summaries: list[SummaryRecord] = Field(default_factory=list)
    decisions: list[DecisionEntry] = Field(default_factory=list)
    char_budget: int = 24_000
    answer: str = ""
    route: str = ""
