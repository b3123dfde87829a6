"""Application settings and prompt profiles."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, Optional

from camel.types import ModelPlatformType, ModelType


@dataclass
class PromptProfile:
    id: str
    text: str
    temperature: float = 0.2


DEFAULT_PROFILES: Dict[str, PromptProfile] = {
    "summarize": PromptProfile(
        id="summarize",
        text="Summarize the following notes faithfully. Do not add facts.",
    ),
    "compress": PromptProfile(
        id="compress",
        text="Rewrite the passage in at most three sentences.",
    ),
    "translate": PromptProfile(
        id="translate",
        text="Translate the passage into plain English.",
    ),
}


@dataclass
class Settings:
    model_platform: ModelPlatformType = ModelPlatformType.OPENAI
    model_type: ModelType = ModelType.GPT_4O_MINI
    token_limit: int = 16_000
    window_size: Optional[int] = None
    tombstone_ttl_s: float = 6 * 3600.0
    decision_log_path: str = "decisions.jsonl"
    history_path: str = "history.jsonl"
    db_path: str = "sessions.sqlite3"
    low_score_threshold: float = 0.25
    max_tool_output_chars: int = 4_000
    profiles: Dict[str, PromptProfile] = field(
        default_factory=lambda: dict(DEFAULT_PROFILES)
    )

    def apply_overrides(self, overrides: Dict[str, str]) -> None:
        for key, value in overrides.items():
            if key.startswith("profile."):
                profile_id = key.split(".", 1)[1]
                profile = self.profiles.get(profile_id)
                if profile is None:
                    self.profiles[profile_id] = PromptProfile(profile_id, value)
                else:
                    profile.text = value
            elif key == "token_limit":
                self.token_limit = int(value)
            elif key == "tombstone_ttl_s":
                self.tombstone_ttl_s = float(value)

    @classmethod
    def from_env(cls) -> "Settings":
        settings = cls()
        overrides = {
            k[len("NOTES_"):].lower().replace("__", "."): v
            for k, v in os.environ.items()
            if k.startswith("NOTES_")
        }
        settings.apply_overrides(overrides)
        return settings
