"""In-memory passage store of ``dspy.Example`` passages."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import dspy

from .models import Tombstone
from .textutil import content_digest, sentence_bounds

ChangeListener = Callable[[str, int], None]


class PassageStore:
    def __init__(self) -> None:
        self._items: dict[str, dspy.Example] = {}
        self._tombstones: dict[str, Tombstone] = {}
        self._listeners: list[ChangeListener] = []

    def __iter__(self) -> Iterator[dspy.Example]:
        return iter(list(self._items.values()))

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, pid: str) -> bool:
        return pid in self._items

    def subscribe(self, listener: ChangeListener) -> None:
        self._listeners.append(listener)

    def _notify(self, pid: str, version: int) -> None:
        for listener in self._listeners:
            listener(pid, version)

    def add(self, passage: dspy.Example) -> dspy.Example:
        self._items[passage.pid] = passage
        return passage

    def get(self, pid: str) -> dspy.Example:
        return self._items[pid]

    def get_any(self, pid: str) -> dspy.Example | None:
        if pid in self._items:
            return self._items[pid]
        tomb = self._tombstones.get(pid)
        return tomb.passage if tomb else None

    def replace_text(self, pid: str, new_text: str, produced_by: str) -> dspy.Example:
        current = self._items[pid]
        updated = current.copy(
            text=new_text,
            version=current.version + 1,
            content_hash=content_digest(new_text),
            produced_by=produced_by,
            sentence_offsets=sentence_bounds(new_text),
        )
        self._items[pid] = updated
        self._notify(pid, updated.version)
        return updated

    def patch_text(self, pid: str, new_text: str) -> dspy.Example:
        current = self._items[pid]
        self._items[pid] = current.copy(
            text=new_text,
            content_hash=content_digest(new_text),
            sentence_offsets=sentence_bounds(new_text),
        )
        return self._items[pid]

    def tombstone(self, pid: str, reason: str, superseded_by: str | None = None) -> Tombstone:
        passage = self._items.pop(pid)
        tomb = Tombstone(
            pid=pid,
            version=passage.version,
            content_hash=passage.content_hash,
            passage=passage,
            reason=reason,
            superseded_by=superseded_by,
        )
        self._tombstones[pid] = tomb
        self._notify(pid, passage.version + 1)
        return tomb

    def remove(self, pid: str) -> None:
        self._items.pop(pid, None)
        self._notify(pid, -1)

    def tombstones(self) -> dict[str, Tombstone]:
        return dict(self._tombstones)

    def drop_tombstone(self, pid: str) -> None:
        self._tombstones.pop(pid, None)
