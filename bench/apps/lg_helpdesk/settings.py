from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from typing import Any

from langgraph.store.base import BaseStore

SETTINGS_NAMESPACE = ("settings",)
SETTINGS_KEY = "helpdesk"


@dataclass(frozen=True)
class HelpdeskSettings:
    model_name: str = "gpt-4o-mini"
    embedding_dims: int = 1536
    max_history_tokens: int = 6000
    keep_last_messages: int = 12
    summarize_after_messages: int = 30
    profile_max_chars: int = 2400
    tombstone_ttl_days: int = 14
    job_retention_days: int = 7
    audit_retention_days: int = 365
    escalation_queue: str = "tier2"
    redact_patterns: tuple[str, ...] = field(
        default=(
            r"\b\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}\b",
            r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b",
            r"\b\+?\d[\d ()-]{8,}\d\b",
        )
    )


def load_settings(env: dict[str, str] | None = None) -> HelpdeskSettings:
    env = dict(os.environ if env is None else env)
    base = HelpdeskSettings()
    overrides: dict[str, Any] = {}
    for f in fields(base):
        raw = env.get(f"HELPDESK_{f.name.upper()}")
        if raw is None:
            continue
        if isinstance(getattr(base, f.name), int):
            overrides[f.name] = int(raw)
        elif isinstance(getattr(base, f.name), tuple):
            overrides[f.name] = tuple(p for p in raw.split("||") if p)
        else:
            overrides[f.name] = raw
    return replace(base, **overrides)


def tenant_settings(store: BaseStore, tenant: str, defaults: HelpdeskSettings) -> HelpdeskSettings:
    item = store.get((*SETTINGS_NAMESPACE, tenant), SETTINGS_KEY)
    if item is None:
        return defaults
    known = {f.name for f in fields(defaults)}
    values = {k: v for k, v in item.value.items() if k in known}
    if "redact_patterns" in values:
        values["redact_patterns"] = tuple(values["redact_patterns"])
    return replace(defaults, **values)


def update_tenant_settings(store: BaseStore, tenant: str, **changes: Any) -> dict[str, Any]:
    ns = (*SETTINGS_NAMESPACE, tenant)
    item = store.get(ns, SETTINGS_KEY)
    current = dict(item.value) if item else {}
    for name, value in changes.items():
        if name not in HelpdeskSettings.__dataclass_fields__:
            raise KeyError(f"unknown setting {name!r}")
        current[name] = list(value) if isinstance(value, tuple) else value
    store.put(ns, SETTINGS_KEY, current, index=False)
    return current
