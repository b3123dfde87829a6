from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from functools import lru_cache

from letta_client import AsyncLetta, Letta


@dataclass
class Settings:
    base_url: str = "http://localhost:8283"
    api_key: str | None = None
    agent_id: str = ""
    archive_id: str = ""
    embedding_model: str = "text-embedding-3-small"
    summary_model: str = "openai/gpt-4o-mini"
    tombstone_retention_days: int = 14
    job_retention_days: int = 7
    webhook_url: str | None = None
    webhook_max_chars: int = 3500
    extra_tags: list[str] = field(default_factory=list)

    @classmethod
    def from_env(cls) -> "Settings":
        return cls(
            base_url=os.environ.get("LETTA_BASE_URL", cls.base_url),
            api_key=os.environ.get("LETTA_API_KEY"),
            agent_id=os.environ.get("LETTA_OPS_AGENT_ID", ""),
            archive_id=os.environ.get("LETTA_OPS_ARCHIVE_ID", ""),
            webhook_url=os.environ.get("LETTA_OPS_WEBHOOK"),
        )

    def apply_overrides(self, overrides: dict[str, object]) -> "Settings":
        known = {f.name for f in fields(self)}
        for key, value in overrides.items():
            if key not in known:
                raise KeyError(f"unknown setting {key!r}")
            setattr(self, key, value)
        return self


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings.from_env()


def make_client(settings: Settings | None = None) -> Letta:
    s = settings or get_settings()
    return Letta(base_url=s.base_url, api_key=s.api_key)


def make_async_client(settings: Settings | None = None) -> AsyncLetta:
    s = settings or get_settings()
    return AsyncLetta(base_url=s.base_url, api_key=s.api_key)
