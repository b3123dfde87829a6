"""Finding the spans a call can reach, snapshotting them by reference and restoring them."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, MutableMapping, MutableSequence, Sequence
from typing import Any, Iterator

from runtime_guard.schema import MISSING, SpanReader, SpanType

_SEQUENCES = (list, tuple, deque)


class SpanRecord:
    """The pre-call state of one span, held by reference."""

    __slots__ = ("obj", "span_type", "key", "content", "version", "hash", "derived", "flags",
                 "state", "slots", "in_container")

    def __init__(self, obj: Any, span_type: SpanType, key: Any, in_container: bool) -> None:
        self.obj = obj
        self.span_type = span_type
        self.key = key
        self.in_container = in_container
        self.content = getattr(obj, span_type.content_field)
        self.version = getattr(obj, span_type.version_field) if span_type.version_field else None
        self.hash = getattr(obj, span_type.hash_field) if span_type.has_stored_hash else None
        self.derived = tuple(getattr(obj, n, None) for n in span_type.derived_fields)
        self.flags = tuple(getattr(obj, n, None) for n in span_type.tombstone_flags)
        attributes = getattr(obj, "__dict__", None)
        self.state = attributes.copy() if attributes is not None else None
        self.slots = tuple(getattr(obj, n, MISSING) for n in span_type.slot_names)

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
        self._seen: set[int] = set()

    def add_argument(self, value: Any) -> list[SpanRecord]:
        """Snapshot the spans `value` reaches: a span, a container of spans, or an object holding
        either in an attribute. Return the records it added."""
        added: list[SpanRecord] = []
        if not self._add(value, None, None, added) and not isinstance(value, (type, *_SEQUENCES, dict)):
            for name, attribute in attributes_of(value):
                self._add(attribute, value, name, added)
        return added

    def _add(self, value: Any, holder: Any, attribute: str | None, added: list[SpanRecord]) -> bool:
        reader = self.reader
        span_type = reader.span_type(value)
        if span_type is not None:
            self._record(value, span_type, False, added)
            return True
        if not _is_container(value) or _first_member(value) is MISSING:
            return False
        if reader.span_type(_first_member(value)) is None:
            return False
        if id(value) not in self._seen:
            self._seen.add(id(value))
            self.containers.append(ContainerRecord(value, holder, attribute))
        for member in _members(value):
            member_type = reader.span_type(member)
            if member_type is not None:
                self._record(member, member_type, True, added)
        return True

    def _record(self, obj: Any, span_type: SpanType, in_container: bool, added: list[SpanRecord]) -> None:
        if id(obj) in self._seen:
            return
        self._seen.add(id(obj))
        record = SpanRecord(obj, span_type, self.reader.key(obj, span_type), in_container)
        self.records.setdefault(record.key, record)
        self.all_records.append(record)
        if not in_container:
            self.direct.append(record)
        added.append(record)

    def current_spans(self) -> dict[Any, Any]:
        """The spans reachable now from the places snapshotted, by key."""
        reader = self.reader
        spans: dict[Any, Any] = {}
        for record in self.containers:
            container = record.current()
            if container is None or not _is_container(container):
                continue
            for member in _members(container):
                span_type = reader.span_type(member)
                if span_type is not None:
                    spans.setdefault(reader.key(member, span_type), member)
        for record in self.direct:
            spans.setdefault(reader.key(record.obj, record.span_type), record.obj)
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
