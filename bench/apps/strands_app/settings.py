"""Runtime settings for the casebook assistant."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class PromptTemplate:
    id: str
    text: str
    locale: str = "en"


DEFAULT_PROMPTS = {
    "system": PromptTemplate("system", "You are a careful support-desk research assistant. Cite your sources."),
    "summary": PromptTemplate("summary", "Summarize the conversation so far as terse bullet points."),
}


@dataclass
class Settings:
    model_id: str = "us.anthropic.claude-sonnet-4-20250514-v1:0"
    region: str = "us-east-1"
    window_size: int = 40
    preserve_recent: int = 8
    summary_ratio: float = 0.3
    token_budget: int = 60_000
    tombstone_ttl_hours: int = 24
    decision_log_path: Path = Path("var/decisions.jsonl")
    session_dir: Path = Path("var/sessions")
    db_path: Path = Path("var/casebook.sqlite3")
    prompts: dict[str, PromptTemplate] = field(default_factory=lambda: dict(DEFAULT_PROMPTS))

    def override_prompt(self, prompt_id: str, text: str) -> None:
        current = self.prompts.get(prompt_id)
        locale = current.locale if current else "en"
        self.prompts[prompt_id] = PromptTemplate(prompt_id, text.strip(), locale)

    @classmethod
    def from_env(cls) -> "Settings":
        s = cls()
        s.model_id = os.environ.get("CASEBOOK_MODEL_ID", s.model_id)
        s.region = os.environ.get("AWS_REGION", s.region)
        s.window_size = int(os.environ.get("CASEBOOK_WINDOW", s.window_size))
        s.tombstone_ttl_hours = int(os.environ.get("CASEBOOK_TOMBSTONE_TTL_H", s.tombstone_ttl_hours))
        for key, value in os.environ.items():
            if key.startswith("CASEBOOK_PROMPT_"):
                s.override_prompt(key.removeprefix("CASEBOOK_PROMPT_").lower(), value)
        return s


settings = Settings.from_env()
