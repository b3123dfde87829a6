"""Runtime configuration for the triage desk."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass
class DeskSettings:
    id: str = "default"
    model: str = "gpt-4.1-mini"
    system_prompt: str = "You are an IT support triage assistant."
    max_context_items: int = 40
    tombstone_ttl_s: int = 3600
    summary_every: int = 8
    db_path: str = "triage_desk.db"
    escalation_queues: list[str] = field(default_factory=lambda: ["network", "identity", "hardware"])


def load_settings() -> DeskSettings:
    settings = DeskSettings()
    settings.model = os.environ.get("TRIAGE_MODEL", settings.model)
    prompt_override = os.environ.get("TRIAGE_SYSTEM_PROMPT")
    if prompt_override:
        settings.system_prompt = " ".join(prompt_override.split())
    settings.db_path = os.environ.get("TRIAGE_DB", settings.db_path)
    return settings
