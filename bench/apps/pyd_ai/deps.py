"""Run-time dependencies and settings of the case agent."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from .decisions import DecisionLog
from .embeddings_index import EmbeddingIndex
from .spans import ContextStore, HolderRegistry


class AgentSettings(BaseModel):
    model: str = "openai:gpt-4o"
    max_tool_return_chars: int = 6_000
    context_token_budget: int = 12_000
    temperature: float = 0.2
    allow_redaction: bool = True

    def apply_overrides(self, overrides: Mapping[str, Any]) -> AgentSettings:
        for key, value in overrides.items():
            if key not in type(self).model_fields:
                raise KeyError(f"unknown setting {key!r}")
            setattr(self, key, type(getattr(self, key))(value))
        return self


@dataclass
class CaseDeps:
    store: ContextStore
    decisions: DecisionLog
    index: EmbeddingIndex
    holders: HolderRegistry = field(default_factory=HolderRegistry)
    settings: AgentSettings = field(default_factory=AgentSettings)
    case_id: str = ""
