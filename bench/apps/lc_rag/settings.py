"""Runtime settings for the RAG service."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass
class RetrievalProfile:
    """A named retrieval tuning preset that admins can edit from the console."""

    id: str
    top_k: int = 4
    score_threshold: float = 0.2
    reorder_long_context: bool = True
    description: str = ""


@dataclass
class RagSettings:
    chunk_size: int = 800
    chunk_overlap: int = 120
    embedding_size: int = 256
    history_window: int = 24
    summary_every: int = 6
    tombstone_ttl_s: float = 7 * 24 * 3600
    chunk_max_age_s: float = 180 * 24 * 3600
    decision_log_path: str = "var/decisions.jsonl"
    database_path: str = "var/lc_rag.sqlite3"
    profiles: dict[str, RetrievalProfile] = field(
        default_factory=lambda: {"default": RetrievalProfile(id="default")}
    )

    def profile(self, name: str | None) -> RetrievalProfile:
        return self.profiles.get(name or "default", self.profiles["default"])


def load_settings(env: dict[str, str] | None = None) -> RagSettings:
    env = dict(os.environ if env is None else env)
    settings = RagSettings()
    if "LC_RAG_CHUNK_SIZE" in env:
        settings.chunk_size = int(env["LC_RAG_CHUNK_SIZE"])
    if "LC_RAG_CHUNK_OVERLAP" in env:
        settings.chunk_overlap = int(env["LC_RAG_CHUNK_OVERLAP"])
    if "LC_RAG_HISTORY_WINDOW" in env:
        settings.history_window = int(env["LC_RAG_HISTORY_WINDOW"])
    if "LC_RAG_DECISION_LOG" in env:
        settings.decision_log_path = env["LC_RAG_DECISION_LOG"]
    return settings


def update_profile(settings: RagSettings, profile_id: str, **changes: object) -> RetrievalProfile:
    """Edit a retrieval preset in place; presets are plain configuration."""
    profile = settings.profiles.setdefault(profile_id, RetrievalProfile(id=profile_id))
    for key, value in changes.items():
        if not hasattr(profile, key) or key == "id":
            raise KeyError(f"unknown profile field {key!r}")
        setattr(profile, key, value)
    profile.description = str(changes.get("description", profile.description)).strip()
    return profile
