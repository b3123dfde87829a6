"""Admin console: runtime settings, status widget and read-only span previews."""

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from pydantic import BaseModel

from crew_memory.spans import SpanStore


class CrewSettings(BaseModel):
    model: str = "gpt-4o-mini"
    token_budget: int = 12_000
    verbose: bool = False


class Setting(BaseModel):
    id: str
    content: str


class SettingsRegistry:
    def __init__(self) -> None:
        self._items = {"signoff": Setting(id="signoff", content="-- Support team")}

    def get(self, key: str) -> str:
        return self._items[key].content

    def set(self, key: str, value: str) -> Setting:
        item = self._items.setdefault(key, Setting(id=key, content=value))
        item.content = value
        return item


@dataclass
class Widget:
    id: str
    text: str
    level: str = "info"

    def update(self, text: str, warn: bool = False) -> None:
        self.text, self.level = text, "warn" if warn else "info"


@dataclass(frozen=True)
class SpanPreview:
    span_id: str
    version: int
    content: str

    def headline(self, width: int = 80) -> str:
        return self.content[:width].split("\n", 1)[0]


def previews(store: SpanStore) -> Mapping[str, SpanPreview]:
    return MappingProxyType({s.span_id: SpanPreview(s.span_id, s.version, s.content)
                             for s in store.live()})
