from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass
class Settings:
    model: str = "gpt-4o-mini"
    max_context_messages: int = 40
    tombstone_ttl_s: float = 3600.0
    summary_budget_chars: int = 1200


def load_settings() -> Settings:
    s = Settings()
    s.model = os.environ.get("HAY_AGENT_MODEL", s.model)
    s.max_context_messages = int(os.environ.get("HAY_AGENT_MAX_MSGS", s.max_context_messages))
    return s
