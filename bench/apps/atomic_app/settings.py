"""Application settings."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class AppSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ATOMIC_APP_", env_file=".env", extra="ignore")

    model: str = "gpt-5-mini"
    summarizer_model: str = "gpt-5-mini"
    max_messages: int = 200
    max_context_tokens: int | None = 48_000
    compaction_threshold: float = 0.8
    tombstone_ttl_seconds: int = 3600
    embedding_dim: int = 64
    db_path: str = "atomic_app.sqlite3"
    http_port: int = 8765
    prompts: dict[str, dict[str, str]] = Field(
        default_factory=lambda: {
            "summarize": {"id": "summarize", "text": "Summarize the following notes faithfully."},
            "redact": {"id": "redact", "text": "Remove personal data."},
        }
    )


_settings: AppSettings | None = None


def get_settings() -> AppSettings:
    global _settings
    if _settings is None:
        _settings = AppSettings()
    return _settings


def override_prompt(settings: AppSettings, prompt_id: str, text: str) -> AppSettings:
    prompts = dict(settings.prompts)
    entry = dict(prompts.get(prompt_id, {"id": prompt_id}))
    entry["text"] = text
    prompts[prompt_id] = entry
    settings.prompts = prompts
    return settings
