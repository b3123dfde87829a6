"""Runtime settings."""

from __future__ import annotations

import os
from typing import Any

from pydantic import BaseModel, Field


class AssistantSettings(BaseModel):
    user_id: str
    persona: str = "You are a concise, friendly personal assistant."
    max_history_tokens: int = 3000
    context_token_limit: int = 900
    hide_reasoning: bool = True
    redact_before_upload: bool = True
    data_dir: str = Field(default_factory=lambda: os.path.expanduser("~/.mem0_assist"))

    def mem0_config(self) -> dict[str, Any]:
        return {
            "vector_store": {"provider": "qdrant",
                             "config": {"collection_name": f"assist_{self.user_id}", "path": f"{self.data_dir}/qdrant"}},
            "llm": {"provider": "openai", "config": {"model": "gpt-4.1-mini", "temperature": 0.1}},
            "embedder": {"provider": "openai", "config": {"model": "text-embedding-3-small"}},
            "history_db_path": f"{self.data_dir}/history.db",
        }


def apply_overrides(settings: AssistantSettings, overrides: dict[str, Any]) -> AssistantSettings:
    for key, value in overrides.items():
        if key in AssistantSettings.model_fields:
            setattr(settings, key, value)
    return settings
