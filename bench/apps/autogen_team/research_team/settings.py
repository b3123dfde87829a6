"""Runtime settings for the research team."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from typing import Any, Dict, Mapping


@dataclass
class TeamSettings:
    profile_id: str = "default"
    model: str = "gpt-4o-mini"
    team_kind: str = "round_robin"
    max_messages: int = 24
    context_budget_tokens: int = 6000
    tool_output_chars: int = 1200
    tombstone_ttl_s: float = 3600.0
    session_dir: str = ".research_sessions"
    extra: Dict[str, Any] = field(default_factory=dict)

    def apply(self, overrides: Mapping[str, Any]) -> "TeamSettings":
        names = {f.name for f in fields(self)}
        for key, value in overrides.items():
            if key in names:
                setattr(self, key, type(getattr(self, key))(value))
            else:
                self.extra[key] = value
        return self


def from_env(prefix: str = "RESEARCH_TEAM_") -> TeamSettings:
    settings = TeamSettings()
    env = {k[len(prefix) :].lower(): v for k, v in os.environ.items() if k.startswith(prefix)}
    return settings.apply(env)
