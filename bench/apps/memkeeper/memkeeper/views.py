from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from .records import MemoryRecord
from .store import MemoryStore


def snapshot(store: MemoryStore) -> Mapping[str, str]:
    return MappingProxyType({r["id"]: r["text"] for r in store.live()})


def preview(rec: MemoryRecord, width: int = 80) -> str:
    text = rec["text"]
    text = text if len(text) <= width else text[: width - 1] + "…"
    return f"{rec['id']}@v{rec['version']}: {text}"


class AuditRow:
    """Row of the sqlite audit table (id, content, updated_at)."""

    __tablename__ = "audit"

    def __init__(self, id: int, content: str, updated_at: float) -> None:
        self.id = id
        self.content = content
        self.updated_at = updated_at

    def touch(self, content: str, now: float) -> None:
        self.content = content
        self.updated_at = now
