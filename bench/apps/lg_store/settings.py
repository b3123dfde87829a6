"""Runtime settings, read from the environment once at start-up."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Settings:
    span_namespace: str = "spans"
    decision_namespace: str = "decisions"
    memory_namespace: str = "memories"
    embed_dims: int = 64
    context_token_budget: int = 3000
    keep_last_messages: int = 12
    summary_trigger_messages: int = 30
    tombstone_max_age_s: float = 6 * 3600.0
    job_retention_s: float = 24 * 3600.0
    db_path: str = "lg_store.sqlite3"
    extra: dict[str, str] = field(default_factory=dict)


def load_settings() -> Settings:
    env = os.environ
    return Settings(
        embed_dims=int(env.get("LG_STORE_EMBED_DIMS", "64")),
        context_token_budget=int(env.get("LG_STORE_TOKEN_BUDGET", "3000")),
        keep_last_messages=int(env.get("LG_STORE_KEEP_LAST", "12")),
        summary_trigger_messages=int(env.get("LG_STORE_SUMMARY_AT", "30")),
        tombstone_max_age_s=float(env.get("LG_STORE_TOMBSTONE_AGE", str(6 * 3600))),
        db_path=env.get("LG_STORE_DB", "lg_store.sqlite3"),
    )


# Named presets shown in the CLI's "profile" picker.
PROFILES: dict[str, dict[str, object]] = {
    "default": {"id": "default", "text": "Balanced context budget", "budget": 3000},
    "long": {"id": "long", "text": "Long sessions, aggressive compaction", "budget": 6000},
}


def update_profile(profile_id: str, text: str, budget: int | None = None) -> dict[str, object]:
    profile = PROFILES[profile_id]
    profile["text"] = text
    if budget is not None:
        profile["budget"] = budget
    return profile


def apply_profile(settings: Settings, profile_id: str) -> Settings:
    budget = int(PROFILES[profile_id]["budget"])  # type: ignore[arg-type]
    return replace(settings, context_token_budget=budget)
