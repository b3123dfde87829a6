"""Runtime settings for the desk assistant."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace

from agents import ModelSettings


@dataclass(frozen=True)
class AgentProfile:
    id: str
    text: str
    model: str = "gpt-4.1-mini"
    temperature: float = 0.2


@dataclass
class DeskSettings:
    db_path: str = "desk_sessions.db"
    embedding_model: str = "text-embedding-3-small"
    max_context_items: int = 60
    tombstone_ttl_seconds: float = 6 * 3600.0
    summary_passes: int = 3
    profiles: dict[str, AgentProfile] = field(default_factory=dict)

    def model_settings(self, profile_id: str) -> ModelSettings:
        profile = self.profiles[profile_id]
        return ModelSettings(temperature=profile.temperature)


DEFAULT_PROFILES = {
    "triage": AgentProfile(
        id="triage",
        text="You triage incoming support tickets and hand off to specialists.",
    ),
    "billing": AgentProfile(
        id="billing",
        text="You answer billing questions. Cite the conversation spans you rely on.",
    ),
    "summarizer": AgentProfile(
        id="summarizer",
        text="Summarize the provided conversation faithfully. Do not add facts.",
        temperature=0.0,
    ),
}


def load_settings(env: dict[str, str] | None = None) -> DeskSettings:
    env = dict(os.environ if env is None else env)
    settings = DeskSettings(profiles=dict(DEFAULT_PROFILES))
    if "DESK_DB_PATH" in env:
        settings.db_path = env["DESK_DB_PATH"]
    if "DESK_MAX_ITEMS" in env:
        settings.max_context_items = int(env["DESK_MAX_ITEMS"])
    for key, value in env.items():
        if key.startswith("DESK_PROFILE_") and key.endswith("_TEXT"):
            profile_id = key[len("DESK_PROFILE_") : -len("_TEXT")].lower()
            if profile_id in settings.profiles:
                settings.profiles[profile_id] = replace(settings.profiles[profile_id], text=value)
    return settings
