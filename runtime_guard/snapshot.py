"""Finding the spans a call can reach, snapshotting them by reference and restoring them."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, MutableMapping, MutableSequence, Sequence
from typing import Any, Iterator

from runtime_guard.schema import MISSING, SpanReader, SpanType

_SEQUENCES = (list, tuple, deque)


class SpanRecord:
    """The pre-call state of one span, held by reference: a shallow copy of its attributes, from
    which its version, hash, derived fields and flags are read back only when a check needs them."""

    __slots__ = ("obj", "span_type", "key", "content", "state", "slots", "eager", "in_container")

    def __init__(self, obj: Any, span_type: SpanType, key: Any, in_container: bool) -> None:
        self.obj = obj
        self.span_type = span_type
        self.key = key
        self.in_container = in_container
        self.content = getattr(obj, span_type.content_field)
        attributes = getattr(obj, "__dict__", None)
        self.state = attributes.copy() if attributes is not None else None
        self.slots = tuple([getattr(obj, n, MISSING) for n in span_type.slot_names]) if span_type.slot_names else ()
        self.eager = {n: getattr(obj, n, None) for n in span_type.eager_fields} if span_type.eager_fields else None

    def before(self, name: str | None) -> Any:
        """The value field `name` had before the call (None if the span had no such field)."""
        if name is None:
            return None
        if self.state is not None and name in self.state:
            return self.state[name]
        if name in self.span_type.slot_names:
            value = self.slots[self.span_type.slot_names.index(name)]
            return None if value is MISSING else value
        return self.eager.get(name) if self.eager else None

    @property
    def version(self) -> Any:
        return self.before(self.span_type.version_field)

    @property
    def hash(self) -> Any:
        return self.before(self.span_type.hash_field) if self.span_type.has_stored_hash else None

    @property
    def derived(self) -> tuple:
        return tuple(self.before(n) for n in self.span_type.derived_fields)

    @property
    def flags(self) -> tuple:
        return tuple(self.before(n) for n in self.span_type.tombstone_flags)

    def changed(self) -> bool:
        """Whether any attribute of the span differs from its snapshot."""
        attributes = getattr(self.obj, "__dict__", None)
        if attributes is not None and attributes != self.state:
            return True
        return self.slots != tuple(getattr(self.obj, n, MISSING) for n in self.span_type.slot_names)

    def restore(self) -> None:
        """Put every attribute of the span back to its snapshot."""
        if self.state is not None:
            attributes = self.obj.__dict__
            attributes.clear()
            attributes.update(self.state)
        for name, value in zip(self.span_type.slot_names, self.slots):
            if value is MISSING:
                try:
                    object.__delattr__(self.obj, name)
                except AttributeError:
                    pass
            else:
                object.__setattr__(self.obj, name, value)


def _first_member(container: Any) -> Any:
    if isinstance(container, Mapping):
        return next(iter(container.values()), MISSING)
    return container[0] if len(container) else MISSING


def _is_container(value: Any) -> bool:
    if isinstance(value, (str, bytes, bytearray)):
        return False
    return isinstance(value, (dict, *_SEQUENCES)) or isinstance(value, (Mapping, Sequence))


def _members(container: Any) -> list[Any]:
    if isinstance(container, Mapping):
        return list(container.values())
    return list(container)


def attributes_of(obj: Any) -> Iterator[tuple[str, Any]]:
    attributes = getattr(obj, "__dict__", None)
    if isinstance(attributes, dict):
        yield from list(attributes.items())
    for klass in type(obj).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__"):
                value = getattr(obj, name, MISSING)
                if value is not MISSING:
                    yield name, value


class ContainerRecord:
    """A list or mapping of spans the call can reach, copied shallowly; `holder.attribute` is where
    it was found, or None for a container passed directly."""

    __slots__ = ("container", "copy", "holder", "attribute")

    def __init__(self, container: Any, holder: Any, attribute: str | None) -> None:
        self.container = container
        self.copy = dict(container) if isinstance(container, Mapping) else list(container)
        self.holder = holder
        self.attribute = attribute

    def current(self) -> Any:
        """The container the call left in the place this one was found."""
        if self.holder is None:
            return self.container
        return getattr(self.holder, self.attribute, None)

    def restore(self) -> bool:
        """Rebind and refill the container as it was; return whether anything changed."""
        changed = False
        if self.holder is not None and getattr(self.holder, self.attribute, MISSING) is not self.container:
            object.__setattr__(self.holder, self.attribute, self.container)
            changed = True
        container = self.container
        if isinstance(container, Mapping):
            if dict(container) != self.copy and isinstance(container, MutableMapping):
                container.clear()
                container.update(self.copy)
                changed = True
        elif list(container) != self.copy:
            if isinstance(container, list):
                container[:] = self.copy
                changed = True
            elif isinstance(container, (deque, MutableSequence)):
                container.clear()
                container.extend(self.copy)
                changed = True
        return changed


class CallSnapshot:
    """Every span and span container reachable from one call's arguments, before the call."""

    def __init__(self, reader: SpanReader) -> None:
        self.reader = reader
        self.records: dict[Any, SpanRecord] = {}
        self.all_records: list[SpanRecord] = []
        self.containers: list[ContainerRecord] = []
        self.direct: list[SpanRecord] = []
        self._container_ids: set[int] = set()
        self._shadowed_ids: set[int] = set()  # spans sharing a key with an earlier, different span

    def add_argument(self, value: Any) -> list[SpanRecord]:
        """Snapshot the spans `value` reaches: a span, a container of spans, or an object holding
        either in an attribute. Return the records it added."""
        start = len(self.all_records)
        if not self._add(value, None, None) and not isinstance(value, (type, *_SEQUENCES, dict)):
            for name, attribute in attributes_of(value):
                self._add(attribute, value, name)
        return self.all_records[start:]

    def _add(self, value: Any, holder: Any, attribute: str | None) -> bool:
        span_type_of = self.reader.span_type
        span_type = span_type_of(value)
        if span_type is not None:
            self._record(value, span_type, False)
            return True
        if not _is_container(value) or _first_member(value) is MISSING:
            return False
        if span_type_of(_first_member(value)) is None:
            return False
        if id(value) not in self._container_ids:
            self._container_ids.add(id(value))
            self.containers.append(ContainerRecord(value, holder, attribute))
        records, all_records, key_of = self.records, self.all_records, self.reader.key
        for member in _members(value):  # the hot loop: one pass per span, kept inline
            member_type = span_type_of(member)
            if member_type is None:
                continue
            span_id = getattr(member, member_type.id_field, None)
            key = span_id if type(span_id) is str else key_of(member, member_type)
            if key not in records:
                record = SpanRecord(member, member_type, key, True)
                records[key] = record
                all_records.append(record)
            else:
                self._record(member, member_type, True)
        return True

    def _record(self, obj: Any, span_type: SpanType, in_container: bool) -> None:
        key = self.reader.key(obj, span_type)
        existing = self.records.get(key)
        if existing is not None and (existing.obj is obj or id(obj) in self._shadowed_ids):
            existing.in_container = existing.in_container or in_container
            return
        record = SpanRecord(obj, span_type, key, in_container)
        if existing is None:
            self.records[key] = record
        else:
            self._shadowed_ids.add(id(obj))
        self.all_records.append(record)
        if not in_container:
            self.direct.append(record)

    def current_spans(self) -> dict[Any, Any]:
        """The spans reachable now from the places snapshotted, by key."""
        span_type_of, key_of = self.reader.span_type, self.reader.key
        spans: dict[Any, Any] = {}
        for record in self.containers:
            container = record.current()
            if container is None or not _is_container(container):
                continue
            for member in _members(container):
                span_type = span_type_of(member)
                if span_type is not None:
                    span_id = getattr(member, span_type.id_field, None)
                    key = span_id if type(span_id) is str else key_of(member, span_type)
                    if key not in spans:
                        spans[key] = member
        for record in self.direct:
            spans.setdefault(key_of(record.obj, record.span_type), record.obj)
        return spans

    def restore(self) -> tuple[int, int]:
        """Restore every container and span to its snapshot; return how many of each changed."""
        containers = sum(record.restore() for record in self.containers)
        spans = 0
        for record in self.all_records:
            if record.changed():
                record.restore()
                spans += 1
        return containers, spans
