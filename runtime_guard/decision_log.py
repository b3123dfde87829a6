"""Decision logs: the append-only `DecisionLog` prune operators can record their decisions in, and
how the guard reads and rolls back a log of any common shape."""

from __future__ import annotations

import threading
from types import MappingProxyType
from typing import Any, Iterator, Mapping

from runtime_guard.schema import read
from runtime_guard.vocabulary import Vocabulary


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


def _type_named_like_a_log(value: Any, vocabulary: Vocabulary) -> bool:
    return type(value).__name__.endswith(vocabulary.decision_log_types)


def entry_list(log: Any, vocabulary: Vocabulary) -> tuple[list | None, str | None]:
    """The list holding a decision log's entries, and the attribute of `log` it sits in (None for
    the log itself): a list log, a DecisionLog, or an object with a list-valued `entries`,
    `records`, `log`... attribute. (None, None) when the entries are not in a list."""
    if isinstance(log, DecisionLog):
        return log._entries, None
    if isinstance(log, list):
        return log, None
    for name in vocabulary.log_entry_fields:
        value = read(log, name)
        if isinstance(value, list):
            return value, name
    return None, None


def is_decision_log(value: Any, vocabulary: Vocabulary) -> bool:
    """Whether `value` can serve as a decision log: a list of entries, a DecisionLog, an object
    holding its entries in a list attribute, or one with a `record`/`append` method whose entries
    can be iterated."""
    if _is_atom_like(value):
        return False
    if entry_list(value, vocabulary)[0] is not None:
        return True
    recorder = any(callable(read(value, name)) for name in ("record", "append"))
    return recorder and callable(read(value, "__iter__"))


def _is_atom_like(value: Any) -> bool:
    return value is None or isinstance(value, (str, bytes, int, float, tuple, dict, type))


def is_named_decision_log(value: Any, vocabulary: Vocabulary) -> bool:
    """Whether `value`'s type says it is a decision log (DecisionLog, `*AuditLog`, ...)."""
    return isinstance(value, DecisionLog) or (_type_named_like_a_log(value, vocabulary)
                                               and is_decision_log(value, vocabulary))


def _entry_state(entry: Any) -> Any:
    if isinstance(entry, MappingProxyType):
        return entry  # read-only: cannot change
    if isinstance(entry, Mapping):
        return dict(entry)
    attributes = read(entry, "__dict__")
    return dict(attributes) if isinstance(attributes, dict) else entry


def _same(a: Any, b: Any) -> bool:
    try:
        return a is b or bool(a == b)
    except Exception:
        return False


class LogSnapshot:
    """A decision log before a prune call: its entries (by reference) and each entry's fields."""

    def __init__(self, log: Any, vocabulary: Vocabulary) -> None:
        self.log = log
        self.vocabulary = vocabulary
        self.list, self.attribute = entry_list(log, vocabulary)
        self.entries = self._current()
        self.states = [_entry_state(e) for e in self.entries]

    def _current(self) -> list[Any]:
        if self.list is not None:
            current, _ = entry_list(self.log, self.vocabulary)
            return list(current if current is not None else self.list)
        try:
            return list(self.log)
        except Exception:
            return []

    def rewrites(self) -> list[str]:
        """How the call broke append-only: entries removed or changed."""
        current = self._current()
        if len(current) < len(self.entries):
            return [f"decision log lost {len(self.entries) - len(current)} entries (it must be append-only)"]
        changed = [i for i, (old, state) in enumerate(zip(self.entries, self.states))
                   if current[i] is not old or (state is not old and not _same(_entry_state(old), state))]
        if changed:
            return [f"decision log entries {changed[:10]} were replaced or changed (it must be append-only)"]
        return []

    def new_entries(self) -> list[Any]:
        """Entries added during the call."""
        return self._current()[len(self.entries):]

    def all_entries(self) -> list[Any]:
        return self._current()

    def changed(self) -> bool:
        current = self._current()
        return len(current) != len(self.entries) or bool(self.rewrites())

    def restore(self) -> list[str]:
        """Put the log back as it was before the call; return what could not be restored."""
        if not self.changed():
            return []
        if self.list is None:
            return [f"the decision log (a {type(self.log).__name__} keeps no list of entries the guard can reset)"]
        try:
            if self.attribute is not None and read(self.log, self.attribute) is not self.list:
                object.__setattr__(self.log, self.attribute, self.list)
            for entry, state in zip(self.entries, self.states):
                if state is not entry:
                    target = entry if isinstance(entry, Mapping) else entry.__dict__
                    if not _same(dict(target), state):
                        target.clear()
                        target.update(state)
            if isinstance(self.log, DecisionLog):
                self.log._truncate(len(self.entries))
            else:
                self.list[:] = self.entries
        except Exception:
            pass
        return ["the decision log"] if self.changed() else []
