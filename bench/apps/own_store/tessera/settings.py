"""Runtime settings, loaded from a JSON file and adjustable from the console."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs


@attrs.define
class Settings:
    settings_id: str = "default"
    model: str = "gw-large"
    token_budget: int = 12_000
    summary_tokens: int = 256
    prune_threshold: float = 0.15
    tombstone_days: int = 14
    extra: dict[str, Any] = attrs.field(factory=dict)


class SettingsRegistry:
    def __init__(self, path: Path) -> None:
        self._path = path
        self._profiles: dict[str, Settings] = {}
        if path.exists():
            for sid, raw in json.loads(path.read_text()).items():
                self._profiles[sid] = Settings(settings_id=sid, **raw)

    def get(self, settings_id: str = "default") -> Settings:
        return self._profiles.setdefault(settings_id, Settings(settings_id=settings_id))

    def update(self, settings_id: str, **changes: Any) -> Settings:
        cur = self.get(settings_id)
        known = {f.name for f in attrs.fields(Settings)}
        for k, v in changes.items():
            if k in known:
                setattr(cur, k, v)
            else:
                cur.extra[k] = v
        self.save()
        return cur

    def save(self) -> None:
        data = {
            sid: attrs.asdict(s, filter=lambda a, _v: a.name != "settings_id")
            for sid, s in self._profiles.items()
        }
        self._path.write_text(json.dumps(data, indent=2, sort_keys=True))
