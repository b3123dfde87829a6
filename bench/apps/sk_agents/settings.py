"""Runtime settings for the planner agent."""

from __future__ import annotations

import os

from pydantic import BaseModel, Field


class AgentSettings(BaseModel):
    model_id: str = Field(default_factory=lambda: os.getenv("SK_AGENTS_MODEL", "gpt-4o-mini"))
    embedding_model_id: str = "text-embedding-3-small"
    embedding_dimensions: int = 1536
    target_count: int = 24
    threshold_count: int = 4
    summary_span_id: str = "task-summary"
    tool_result_limit: int = 4000
    tombstone_ttl_s: float = 6 * 3600.0
    job_ttl_s: float = 24 * 3600.0
    decision_log_max_entries: int = 20_000
    redaction_patterns: list[str] = Field(
        default_factory=lambda: [r"\b\d{3}-\d{2}-\d{4}\b", r"[\w.+-]+@[\w-]+\.[\w.]+"]
    )


class SettingsRegistry:
    """Named setting profiles, editable from the admin console."""

    def __init__(self, base: AgentSettings) -> None:
        self._profiles: dict[str, AgentSettings] = {"default": base}

    def profile(self, name: str = "default") -> AgentSettings:
        return self._profiles[name]

    def clone(self, name: str, source: str = "default") -> AgentSettings:
        cfg = self._profiles[source].model_copy(deep=True)
        self._profiles[name] = cfg
        return cfg

    def update(self, name: str, **changes: object) -> AgentSettings:
        cfg = self._profiles[name]
        for key, value in changes.items():
            if not hasattr(cfg, key):
                raise KeyError(f"unknown setting {key!r}")
            setattr(cfg, key, value)
        self._profiles[name] = cfg
        return cfg
