"""Runtime settings for the agent, overridable per tenant."""

from __future__ import annotations

from typing import Any, Mapping

from llama_index.core import Settings
from pydantic import BaseModel, Field


class AgentSettings(BaseModel):
    chunk_size: int = 512
    chunk_overlap: int = 48
    top_k: int = 6
    compress_over_chars: int = 1_200
    tombstone_ttl_s: int = 6 * 3600
    memory_token_limit: int = 6_000
    llm_model: str = "gpt-4o-mini"
    tags: dict[str, str] = Field(default_factory=dict)


_MUTABLE = {"top_k", "compress_over_chars", "tombstone_ttl_s", "memory_token_limit", "tags"}


def apply_overrides(settings: AgentSettings, overrides: Mapping[str, Any]) -> AgentSettings:
    for key, value in overrides.items():
        if key not in _MUTABLE:
            raise KeyError(f"setting {key!r} cannot be changed at runtime")
        if key == "tags":
            settings.tags.update(value)
        else:
            setattr(settings, key, type(getattr(settings, key))(value))
    Settings.chunk_size = settings.chunk_size
    Settings.chunk_overlap = settings.chunk_overlap
    return settings
