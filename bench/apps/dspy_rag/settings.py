"""Runtime settings and DSPy configuration."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace

import dspy
from dspy.utils.callback import BaseCallback


@dataclass(frozen=True)
class ModelProfile:
    id: str = "default"
    model: str = "openai/gpt-4o-mini"
    embedder_model: str = "openai/text-embedding-3-small"
    temperature: float = 0.0
    max_tokens: int = 1024


@dataclass
class AppSettings:
    profile: ModelProfile = field(default_factory=ModelProfile)
    top_k: int = 5
    token_budget: int = 6000
    summary_budget_chars: int = 1200
    tombstone_ttl_seconds: float = 3600.0
    decision_log_path: str = "decisions.jsonl"
    db_path: str = "rag.sqlite3"
    profiles: dict[str, ModelProfile] = field(default_factory=dict)


def load_settings(env: dict[str, str] | None = None) -> AppSettings:
    env = dict(os.environ if env is None else env)
    settings = AppSettings()
    overrides: dict[str, object] = {}
    if "RAG_MODEL" in env:
        overrides["model"] = env["RAG_MODEL"]
    if "RAG_EMBEDDER" in env:
        overrides["embedder_model"] = env["RAG_EMBEDDER"]
    if "RAG_TEMPERATURE" in env:
        overrides["temperature"] = float(env["RAG_TEMPERATURE"])
    if overrides:
        settings.profile = replace(settings.profile, **overrides)
    settings.profiles[settings.profile.id] = settings.profile
    settings.top_k = int(env.get("RAG_TOP_K", settings.top_k))
    settings.token_budget = int(env.get("RAG_TOKEN_BUDGET", settings.token_budget))
    settings.tombstone_ttl_seconds = float(env.get("RAG_TOMBSTONE_TTL", settings.tombstone_ttl_seconds))
    settings.decision_log_path = env.get("RAG_DECISION_LOG", settings.decision_log_path)
    return settings


def configure_dspy(settings: AppSettings, callbacks: list[BaseCallback] | None = None) -> dspy.Embedder:
    lm = dspy.LM(
        settings.profile.model,
        temperature=settings.profile.temperature,
        max_tokens=settings.profile.max_tokens,
    )
    dspy.configure(lm=lm, callbacks=list(callbacks or []))
    return dspy.Embedder(settings.profile.embedder_model, batch_size=64)
