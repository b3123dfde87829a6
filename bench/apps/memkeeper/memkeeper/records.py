from __future__ import annotations

from typing import NotRequired, TypedDict


class MemoryRecord(TypedDict):
    id: str
    text: str
    version: int
    digest: str
    source_ids: NotRequired[list[str]]
    tombstoned_at: NotRequired[float | None]


class Note(TypedDict):
    id: str
    body: str
    author: str


class Citation(TypedDict):
    record_id: str
    start: int
    end: int


class OffsetEntry(TypedDict):
    record_id: str
    version: int
    digest: str
    offsets: list[tuple[int, int]]


class Decision(TypedDict):
    ts: float
    action: str
    target_ids: list[str]
    reason: str
