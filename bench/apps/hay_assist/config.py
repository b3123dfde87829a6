"""Runtime settings for the assistant."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields


@dataclass
class AssistantSettings:
    profile_id: str = "default"
    display_name: str = "Hay Assist"
    max_context_tokens: int = 6000
    summary_trigger_tokens: int = 4500
    tombstone_ttl_days: int = 14
    split_length: int = 120
    split_overlap: int = 20
    redaction_patterns: list[str] = field(
        default_factory=lambda: [r"\b\d{3}-\d{2}-\d{4}\b", r"[\w.+-]+@[\w-]+\.[\w.]+"]
    )

    def update(self, **overrides) -> "AssistantSettings":
        known = {f.name for f in fields(self)}
        for key, value in overrides.items():
            if key not in known:
                raise KeyError(f"unknown setting {key!r}")
            setattr(self, key, value)
        return self


def load_settings(profile_id: str | None = None) -> AssistantSettings:
    settings = AssistantSettings(profile_id=profile_id or os.getenv("HAY_ASSIST_PROFILE", "default"))
    env_overrides = {}
    if "HAY_ASSIST_MAX_TOKENS" in os.environ:
        env_overrides["max_context_tokens"] = int(os.environ["HAY_ASSIST_MAX_TOKENS"])
    if "HAY_ASSIST_TTL_DAYS" in os.environ:
        env_overrides["tombstone_ttl_days"] = int(os.environ["HAY_ASSIST_TTL_DAYS"])
    return settings.update(**env_overrides)
