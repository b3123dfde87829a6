"""Runtime settings for briefdesk."""

from __future__ import annotations

import os
from dataclasses import dataclass
from dataclasses import field

APP_NAME = "briefdesk"
DEFAULT_MODEL = "gemini-2.5-flash"


@dataclass
class PromptPreset:
    id: str
    text: str
    enabled: bool = True


def _default_presets() -> dict[str, PromptPreset]:
    return {
        "brief": PromptPreset(
            id="brief",
            text="Write a short briefing with citations to the context spans.",
        ),
        "qa": PromptPreset(
            id="qa",
            text="Answer the question using only the retrieved context.",
        ),
    }


@dataclass
class Settings:
    model: str = DEFAULT_MODEL
    summary_model: str = DEFAULT_MODEL
    max_context_events: int = 40
    compress_span_chars: int = 1200
    summary_every_n_turns: int = 4
    compaction_interval: int = 6
    compaction_overlap: int = 1
    tombstone_ttl_seconds: float = 6 * 3600.0
    job_retention_seconds: float = 24 * 3600.0
    embedding_dim: int = 64
    webhook_url: str | None = None
    db_path: str = "briefdesk.sqlite3"
    decision_log_path: str = "decisions.jsonl"
    presets: dict[str, PromptPreset] = field(default_factory=_default_presets)

    @classmethod
    def from_env(cls) -> "Settings":
        s = cls()
        s.model = os.environ.get("BRIEFDESK_MODEL", s.model)
        s.summary_model = os.environ.get("BRIEFDESK_SUMMARY_MODEL", s.model)
        s.webhook_url = os.environ.get("BRIEFDESK_WEBHOOK_URL") or None
        s.db_path = os.environ.get("BRIEFDESK_DB", s.db_path)
        ttl = os.environ.get("BRIEFDESK_TOMBSTONE_TTL")
        if ttl:
            s.tombstone_ttl_seconds = float(ttl)
        return s

    def set_preset_text(self, preset_id: str, text: str) -> PromptPreset:
        preset = self.presets[preset_id]
        preset.text = text.strip()
        return preset

    def active_instruction(self, preset_id: str) -> str:
        preset = self.presets.get(preset_id)
        if preset is None or not preset.enabled:
            return self.presets["qa"].text
        return preset.text
