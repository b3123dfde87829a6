"""Engine configuration, loaded from JSON with environment overrides."""
import os
from pathlib import Path
from typing import Optional

from pydantic import BaseModel, ConfigDict, Field, PositiveInt

ENV_PREFIX = "CTX_ENGINE_"


class ModelProfile(BaseModel):
    id: str = "support-large"
    version: str = "2025-01"
    max_tokens: PositiveInt = 512


class PromptTemplate(BaseModel):
    name: str = "default"
    text: str = "You are a helpful support agent."


class EngineSettings(BaseModel):
    model_config = ConfigDict(validate_assignment=True)

    profile: ModelProfile = Field(default_factory=ModelProfile)
    system_prompt: PromptTemplate = Field(default_factory=PromptTemplate)
    budget_tokens: PositiveInt = 8000
    tombstone_ttl_s: float = 3600.0
    preview_chars: PositiveInt = 280
    audit_path: Optional[Path] = None

    @classmethod
    def load(cls, path: Optional[Path] = None) -> "EngineSettings":
        settings = cls.model_validate_json(path.read_text()) if path and path.exists() else cls()
        for key in cls.model_fields:
            raw = os.environ.get(ENV_PREFIX + key.upper())
            if raw is not None:
                setattr(settings, key, raw)
        prompt = os.environ.get(ENV_PREFIX + "SYSTEM_PROMPT_TEXT")
        if prompt:
            settings.system_prompt.text = prompt
        return settings
