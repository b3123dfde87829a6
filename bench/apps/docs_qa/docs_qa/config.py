"""Settings for the handbook QA service."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass
class AppConfig:
    data_dir: str = "./handbook"
    persist_dir: str = "./storage"
    chunk_size: int = 512
    chunk_overlap: int = 64
    similarity_top_k: int = 6
    min_score: float = 0.35
    tombstone_ttl_s: int = 7 * 24 * 3600
    system_prompt: str = "You answer questions about the company handbook. Cite your sources."
    redact_patterns: list[str] = field(default_factory=lambda: [r"\b\d{3}-\d{2}-\d{4}\b"])


def load_config() -> AppConfig:
    cfg = AppConfig()
    if "DOCSQA_TOP_K" in os.environ:
        cfg.similarity_top_k = int(os.environ["DOCSQA_TOP_K"])
    prompt = os.environ.get("DOCSQA_SYSTEM_PROMPT")
    if prompt:
        cfg.system_prompt = prompt.strip()
    return cfg
