"""Runtime configuration."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from textwrap import dedent
from typing import Dict, List

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CTXTEAM_", env_file=".env")

    model_id: str = "gpt-4o-mini"
    db_file: str = "tmp/ctxteam.db"
    decision_log_path: Path = Path("tmp/decisions.jsonl")
    context_budget_chars: int = 24_000
    compress_target_chars: int = 600
    relevance_threshold: float = 0.35
    tombstone_ttl_s: int = 6 * 3600
    job_ttl_s: int = 24 * 3600
    webhook_url: str = ""
    num_history_runs: int = 5


@dataclass
class PromptPreset:
    id: str
    title: str
    text: str


DEFAULT_PRESETS: List[PromptPreset] = [
    PromptPreset(
        id="researcher",
        title="Researcher",
        text="""
            You gather evidence. Quote sources verbatim and cite the span you used.
        """,
    ),
    PromptPreset(
        id="writer",
        title="Writer",
        text="""
            You draft the answer from the researcher's notes. Keep citations intact.
        """,
    ),
]


def load_presets(overrides: Dict[str, str] | None = None) -> Dict[str, PromptPreset]:
    presets = {p.id: p for p in DEFAULT_PRESETS}
    for preset_id, text in (overrides or {}).items():
        if preset_id in presets:
            presets[preset_id].text = text
    for preset in presets.values():
        preset.text = dedent(preset.text).strip()
    return presets


def get_settings() -> Settings:
    return Settings()
