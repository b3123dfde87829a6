"""The run context object passed to Runner.run and seen by tools, hooks and guardrails."""

from __future__ import annotations

from dataclasses import dataclass, field

from .buffer import ContextBuffer
from .citations import CitationStore
from .decision_log import DecisionLog
from .housekeeping import HolderRegistry
from .indexes import KeyedEmbeddingIndex
from .models import AgentNote
from .session_store import DeskSession


@dataclass
class DeskContext:
    ticket_id: str
    session: DeskSession
    buffer: ContextBuffer = field(default_factory=ContextBuffer)
    log: DecisionLog = field(default_factory=DecisionLog)
    citations: CitationStore = field(default_factory=CitationStore)
    holders: HolderRegistry = field(default_factory=HolderRegistry)
    notes: dict[str, AgentNote] = field(default_factory=dict)
    embeddings: KeyedEmbeddingIndex | None = None
    audit: list[dict[str, str]] = field(default_factory=list)
