"""Application settings, loaded from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Mapping


@dataclass(frozen=True)
class PromptProfile:
    id: str
    text: str
    temperature: float = 0.2


@dataclass
class Settings:
    model_id: str = "Qwen/Qwen2.5-Coder-32B-Instruct"
    provider: str | None = None
    max_steps: int = 12
    planning_interval: int | None = 3
    observation_char_limit: int = 4000
    summary_budget_chars: int = 1200
    tombstone_ttl_seconds: float = 3600.0
    job_ttl_seconds: float = 600.0
    db_path: str = "smol_agent.sqlite3"
    decision_log_path: str | None = "decisions.jsonl"
    profiles: dict[str, PromptProfile] = field(default_factory=dict)


DEFAULT_PROFILES = {
    "concise": PromptProfile(id="concise", text="Answer briefly and cite your sources."),
    "thorough": PromptProfile(id="thorough", text="Explain your reasoning step by step.", temperature=0.4),
}


def load_settings(env: Mapping[str, str] = os.environ) -> Settings:
    settings = Settings(profiles=dict(DEFAULT_PROFILES))
    if "SMOL_MODEL_ID" in env:
        settings.model_id = env["SMOL_MODEL_ID"]
    if "SMOL_PROVIDER" in env:
        settings.provider = env["SMOL_PROVIDER"]
    if "SMOL_MAX_STEPS" in env:
        settings.max_steps = int(env["SMOL_MAX_STEPS"])
    if "SMOL_OBS_LIMIT" in env:
        settings.observation_char_limit = int(env["SMOL_OBS_LIMIT"])
    if "SMOL_TOMBSTONE_TTL" in env:
        settings.tombstone_ttl_seconds = float(env["SMOL_TOMBSTONE_TTL"])
    return settings


def apply_profile_override(settings: Settings, profile_id: str, text: str) -> PromptProfile:
    current = settings.profiles.get(profile_id) or PromptProfile(id=profile_id, text="")
    updated = replace(current, text=text.strip())
    settings.profiles[profile_id] = updated
    return updated
