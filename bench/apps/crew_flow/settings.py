"""Runtime settings for crew_flow."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

SETTINGS_PATH = Path(os.environ.get("CREW_FLOW_SETTINGS", ".crew_flow/settings.json"))


class AppSettings(BaseModel):
    model: str = "gpt-4o-mini"
    llm_timeout_s: float = 60.0
    max_iter: int = 12
    verbose: bool = False
    char_budget: int = 24_000
    fetch_max_chars: int = 6_000
    memory_path: str = ".crew_flow/memory"
    knowledge_dir: str = "knowledge"
    tombstone_keep_days: int = 14
    embedder: dict[str, Any] = Field(
        default_factory=lambda: {"provider": "openai", "config": {"model": "text-embedding-3-small"}}
    )


def load_settings(path: Path = SETTINGS_PATH) -> AppSettings:
    if path.exists():
        return AppSettings.model_validate_json(path.read_text(encoding="utf-8"))
    return AppSettings()


def update_settings(current: AppSettings, path: Path = SETTINGS_PATH, **changes: Any) -> AppSettings:
    merged = current.model_copy(update=changes)
    AppSettings.model_validate(merged.model_dump())
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(merged.model_dump(), indent=2), encoding="utf-8")
    tmp.replace(path)
    return merged
