"""An append-only decision log that prune operators can record their decisions in."""

from __future__ import annotations

import threading
from types import MappingProxyType
from typing import Any, Iterator, Mapping


class DecisionLog:
    """Append-only log of decisions. Each entry is a read-only mapping; entries are never removed.

    A prune guard accepts a pruned span when an entry recorded during the call names its id among
    the entry's values, e.g. ``log.record(action="prune", span_id="t3", reason="stale tool output")``.
    """

    def __init__(self) -> None:
        self._entries: list[Mapping[str, Any]] = []
        self._lock = threading.Lock()

    def record(self, **fields: Any) -> Mapping[str, Any]:
        """Append an entry made of `fields` and return it (read-only)."""
        entry = MappingProxyType(dict(fields))
        with self._lock:
            self._entries.append(entry)
        return entry

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        return iter(tuple(self._entries))

    def __getitem__(self, index: int) -> Mapping[str, Any]:
        return self._entries[index]

    def __repr__(self) -> str:
        return f"DecisionLog({len(self._entries)} entries)"

    def _truncate(self, length: int) -> None:
        """Drop entries past `length`: only the guard calls this, to roll back a rejected call."""
        with self._lock:
            del self._entries[length:]
