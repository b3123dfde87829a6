"""Finding the spans a call can reach, snapshotting them and restoring them exactly.

From each argument the guard walks at most MAX_DEPTH attribute or container steps to a span or a
container of spans: `buffer._spans` (2 steps), `self.buffer._spans` from a method (3), a graph-state
dict's `state["messages"]` (2), a list of `NodeWithScore` holders' `.node` (2). Spans are leaves: the
guard does not walk into them, but it saves the contents of the dicts, lists and sets they hold.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from collections.abc import Mapping, MutableMapping, MutableSequence, Sequence
from itertools import chain, compress, count as counting, islice, repeat
from operator import attrgetter, is_, is_not, itemgetter, methodcaller, ne
from types import BuiltinFunctionType, FunctionType, GetSetDescriptorType, MethodType, ModuleType
from typing import Any, Iterable

from runtime_guard.errors import describe_key
from runtime_guard.lineage import LINEAGE
from runtime_guard.schema import MISSING, SpanReader, SpanType, TypeCache, read, slot_names

MAX_DEPTH = 3
# Small mappings are walked member by member (graph state: {"messages": [...], "step": 3}); larger
# containers are taken to be uniform and decided by their first member.
SMALL_MAPPING = 32
# Mutable values held by a span are saved by content, and so are the mutable members of a saved
# dict or list of at most NESTED_MEMBERS members, down to NESTED_DEPTH levels.
NESTED_MEMBERS = 32
NESTED_DEPTH = 2

_SEQUENCES = (list, tuple, deque)
_MUTABLE = frozenset({dict, list, set, bytearray})
_IS_MUTABLE = dict.fromkeys(_MUTABLE, True).get  # a builtin method: fast to map over many values
_ATOMS = frozenset({str, bytes, int, float, bool, complex, type(None), range})
UNREADABLE = object()  # the content of a span whose content field raised when read


def _same_contents(value: Any, contents: Any) -> bool:
    """Whether the mutable `value` still holds exactly `contents` (its saved copy), by identity."""
    try:
        if len(value) != len(contents):
            return False
        if type(value) is dict:
            return all(map(is_, value, contents)) and all(map(is_, value.values(), contents.values()))
        if type(value) is list:
            return all(map(is_, value, contents))
        return bool(value == contents)  # a set (members are found by identity first) or a bytearray
    except Exception:
        return False


def _refill(value: Any, contents: Any) -> None:
    if type(value) is list or type(value) is bytearray:
        value[:] = contents
    else:
        value.clear()
        value.update(contents)


_NOTHING_SAVED: tuple[list, list] = ([], [])
_copy = methodcaller("copy")
_IS_NESTING = {dict: True, list: True}.get


def save_mutables(values: Any, depth: int = NESTED_DEPTH) -> tuple[list, list]:
    """The dicts, lists, sets and bytearrays among `values` (a list, tuple or dict view), and a copy
    of each one's contents, with the mutable members of small saved dicts and lists too. Runs
    without a Python-level loop unless a non-empty dict or list is saved."""
    return _save([*compress(values, map(_IS_MUTABLE, map(type, values)))], depth)


def _save(mutables: list, depth: int) -> tuple[list, list]:
    if not mutables:
        return _NOTHING_SAVED
    copies = [*map(_copy, mutables)]
    if depth:
        for contents in [*filter(None, compress(copies, map(_IS_NESTING, map(type, copies))))]:
            if len(contents) <= NESTED_MEMBERS:
                nested, nested_copies = save_mutables(contents.values() if type(contents) is dict else contents,
                                                      depth - 1)
                mutables += nested
                copies += nested_copies
    return mutables, copies


def _saved_again(mutables: list, copy_of: dict[int, Any], depth: int) -> tuple[list, list]:
    """What `_save(mutables, depth)` saved, looked up in `copy_of` (id -> copy) instead of copied."""
    if not mutables:
        return _NOTHING_SAVED
    copies = [copy_of[id(value)] for value in mutables]
    if depth:
        for contents in [*filter(None, compress(copies, map(_IS_NESTING, map(type, copies))))]:
            if len(contents) <= NESTED_MEMBERS:
                values = contents.values() if type(contents) is dict else contents
                nested, nested_copies = _saved_again([*compress(values, map(_IS_MUTABLE, map(type, values)))],
                                                     copy_of, depth - 1)
                mutables = mutables + nested
                copies += nested_copies
    return mutables, copies


def _save_state(state: dict, span_type: SpanType) -> tuple[list, list]:
    """save_mutables over a span's attributes: for a dataclass, attrs class or pydantic model whose
    instance has exactly its declared fields, only those not annotated as text or numbers."""
    if span_type.field_count == len(state):
        getter = span_type.mutable_getter
        if getter is None:
            return _NOTHING_SAVED
        try:
            return save_mutables(getter(state))
        except KeyError:
            pass
    return save_mutables(state.values())


def _all_same(saved: tuple[list, list]) -> bool:
    return all(map(_same_contents, *saved))


def _dict_same(current: Any, state: dict) -> bool:
    return (type(current) is dict and len(current) == len(state) and all(map(is_, current, state))
            and all(map(is_, current.values(), state.values())))


def read_slots(obj: Any, span_type: SpanType) -> tuple:
    """The values of the span type's slots on `obj` (MISSING for an unset one)."""
    getter = span_type.slot_getter
    if getter is None:
        return ()
    try:
        values = getter(obj)
        return values if len(span_type.slot_names) > 1 else (values,)
    except Exception:  # an unset slot, or a failing property
        return tuple([read(obj, n) for n in span_type.slot_names])


class SpanRecord:
    """The pre-call state of one span: a shallow copy of its attributes and slots (pydantic keeps
    `__pydantic_fields_set__`, `__pydantic_extra__` and `__pydantic_private__` in slots), and the
    contents of the dicts, lists and sets they hold. `place` is its index or key in the container
    it was found in, or None."""

    __slots__ = ("obj", "span_type", "key", "content", "content_saved", "state", "slots", "_saved", "eager",
                 "in_container", "place", "_group")

    def __init__(self, obj: Any, span_type: SpanType, key: Any, in_container: bool, place: Any = None) -> None:
        # the hot path of a snapshot (once per span per call): the common cases are inline
        self.obj = obj
        self.span_type = span_type
        self.key = key
        self.in_container = in_container
        self.place = place
        try:
            content = getattr(obj, span_type.content_field)
        except Exception:
            content = UNREADABLE
        self.content = content
        self.content_saved = None if type(content) is str or type(content) not in _MUTABLE else save_mutables(
            (content,))
        attributes = getattr(obj, "__dict__", None)
        state = attributes.copy() if type(attributes) is dict else None
        self.state = state
        if not state or (span_type.field_count == len(state) and span_type.mutable_getter is None):
            saved = _NOTHING_SAVED
        else:
            saved = _save_state(state, span_type)
        if span_type.slot_getter is None:
            self.slots = ()
        else:
            self.slots = slots = read_slots(obj, span_type)
            in_slots = [value for value in slots if type(value) in _MUTABLE]
            if in_slots:
                values, copies = _save(in_slots, NESTED_DEPTH)
                saved = (saved[0] + values, saved[1] + copies) if saved[0] else (values, copies)
        self._saved = saved
        self._group = None
        self.eager = {n: read(obj, n) for n in span_type.eager_fields} if span_type.eager_fields else None

    @property
    def saved(self) -> tuple[list, list]:
        """The mutable values the span held and their saved contents."""
        if self._saved is None:
            saves, candidates = self._group
            self._saved = saves.of(self, candidates)
        return self._saved

    def before(self, name: str | None) -> Any:
        """The value field `name` had before the call (None if the span had no such field)."""
        if name is None:
            return None
        if self.state is not None and name in self.state:
            return self.state[name]
        if name in self.span_type.slot_names:
            value = self.slots[self.span_type.slot_names.index(name)]
            return None if value is MISSING else value
        value = self.eager.get(name) if self.eager else None
        return None if value is MISSING else value

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

    def content_mutated(self) -> bool:
        """Whether a mutable content value (a list of content blocks) was changed in place."""
        return self.content_saved is not None and not _all_same(self.content_saved)

    def changed(self) -> bool:
        """Whether any attribute, slot or saved mutable value of the span differs from its snapshot
        (compared by identity: no `__eq__` of the span's values is called)."""
        obj = self.obj
        if self.state is not None and not _dict_same(read(obj, "__dict__"), self.state):
            return True
        if self.slots and not all(map(is_, self.slots, read_slots(obj, self.span_type))):
            return True
        return not _all_same(self.saved)

    def restore(self) -> list[str]:
        """Put back what differs from the snapshot (and nothing else); re-read the span and return
        what could not be restored (empty when the span is exactly as it was)."""
        obj, state, problems = self.obj, self.state, []
        if state is not None:
            attributes = read(obj, "__dict__")
            if not _dict_same(attributes, state):
                try:
                    if len(attributes) == len(state) and all(map(is_, attributes, state)):
                        for name, value in state.items():
                            if attributes[name] is not value:
                                attributes[name] = value
                    else:
                        attributes.clear()
                        attributes.update(state)
                except Exception:
                    problems.append("its attributes")
        for name, value in zip(self.span_type.slot_names, self.slots):
            if read(obj, name) is value:
                continue
            try:
                if value is MISSING:
                    object.__delattr__(obj, name)
                else:
                    object.__setattr__(obj, name, value)
            except Exception:
                problems.append(f"field {name!r}")
        for value, contents in zip(*self.saved):
            if not _same_contents(value, contents):
                try:
                    _refill(value, contents)
                except Exception:
                    problems.append(f"a {type(value).__name__} it holds")
        if not problems and self.changed():
            problems.append("a field that did not take its old value back")
        return problems


_RUN = 512  # members read in one run: what a run touches stays in the cache for its next pass


def _uniform_values(dicts: list, keys: list) -> list | None:
    """The values of `dicts` end to end if every one has exactly `keys`, in that order (else
    None). Run by run, the keys then the values: keys are unique in a dict, so a run of all their
    keys equal to `keys` repeated means every dict of the run has them."""
    try:
        expected = keys * min(len(dicts), _RUN)
        values: list = []
        for start in range(0, len(dicts), _RUN):
            run = dicts[start:start + _RUN]
            if [*chain.from_iterable(run)] != (expected if len(run) == _RUN or not start else keys * len(run)):
                return None
            values += chain.from_iterable(map(dict.values, run))
        return values if len(values) == len(keys) * len(dicts) else None
    except Exception:  # a non-dict, or a key whose comparison raises
        return None


def _columns(members: list, names: tuple[str, ...]) -> list[list]:
    """Attribute `name` of every member, for each of `names`, read run by run."""
    columns: list[list] = [[] for _ in names]
    getters = [*map(attrgetter, names)]
    for start in range(0, len(members), _RUN):
        run = members[start:start + _RUN]
        for column, getter in zip(columns, getters):
            column += map(getter, run)
    return columns


class _Attributes:
    """The `__dict__`s of a group's members of one type before the call, kept without a dict per
    member (10,000 copies the garbage collector would walk): when every member has the first one's
    keys in its order (checked once, by comparing all keys end to end with the first's repeated),
    those `keys` once and every member's values end to end, entry k of the member at position p at
    `p * width + k`; otherwise a copy of each (`states`). `indices`: the members' indices in the
    group (a range, or a sorted list). `candidates`: the fields whose values can hold a dict, list
    or set (the declared fields not annotated as text or numbers, when every member has exactly the
    declared fields), or None for every attribute."""

    __slots__ = ("kind", "span_type", "indices", "count", "width", "keys", "values", "states", "candidates",
                 "_positions")

    def __init__(self, kind: type, span_type: SpanType, indices: Any, dicts: list) -> None:
        self.kind, self.span_type, self.indices, self.count = kind, span_type, indices, len(dicts)
        self.keys = self.values = self.states = None
        self.width = width = len(dicts[0])
        if width:
            first = [*dicts[0]]  # TypeError for a non-dict
            values = _uniform_values(dicts, first)
            if values is not None:
                self.keys, self.values = first, values
        if self.values is None:
            self.states = [*map(dict.copy, dicts)]
        self._positions = dict(zip(self.keys, range(width))) if self.keys is not None else {}
        declared = span_type.mutable_names
        self.candidates = declared if (self.values is not None and width == span_type.field_count
                                       and all(map(self._positions.__contains__, declared))) else None

    def column(self, name: str, default: Any = None) -> list:
        """The value of field `name` of each member (`default` where it has none)."""
        if self.values is None:
            return [*map(dict.get, self.states, repeat(name), repeat(default))]
        position = self._positions.get(name)
        return [default] * self.count if position is None else self.values[position::self.width]

    def lacks(self, name: str) -> bool:
        """Whether no member has an entry `name` (False when that is not known at once)."""
        return self.values is not None and name not in self._positions

    def all_values(self) -> list:
        """The values of every member's attributes."""
        return self.values if self.values is not None else [*chain.from_iterable(map(dict.values, self.states))]

    def state(self, position: int) -> dict:
        """The attributes of the member at `position` (a new dict)."""
        if self.values is None:
            return self.states[position]
        start = position * self.width
        return dict(zip(self.keys, self.values[start:start + self.width]))


class SpanGroup:
    """The pre-call state of the spans of one list, tuple or dict, taken column by column (C-level
    maps over the members, no per-span Python code): the common buffer, whose members all have a
    string id, text content and a plain `__dict__`, and share id and content field names and slots.
    It saves what a SpanRecord of each member would; records are made from it only for the spans a
    check or a restore looks at. `settled`: after the call, the walk found the container holding the
    same members with the same ids, and no other span at their ids; or, for a list, the same members
    in their order with `removed` (their indices) taken out and nothing added (a prune)."""

    __slots__ = ("container", "holders", "attribute", "members", "places", "span_type", "by_type", "ids",
                 "keys", "contents", "parts", "slot_columns", "saves", "records", "settled", "removed", "_direct",
                 "_dicts_after")

    def __init__(self, container: Any, members: list, places: Any, by_type: dict[type, SpanType],
                 holders: list | None = None, attribute: str | None = None) -> None:
        first = next(iter(by_type.values()))  # all share the id and content field names and the slots
        self.container, self.members, self.places = container, members, places
        self.holders, self.attribute = holders, attribute  # a list of holders: the span of each at `attribute`
        self.span_type = first if len(by_type) == 1 else None
        self.by_type = by_type  # the span type of each type of member
        self._direct = _reads_dict_entries(by_type.keys(), (first.id_field, first.content_field))
        dicts = [*map(_DICT, members)]
        self.parts = self._parts(dicts)
        sliced = self._direct and len(self.parts) == 1 and self.parts[0].values is not None  # read the saved values
        self.ids = ids = self.parts[0].column(first.id_field) if sliced else self._read(first.id_field, dicts)
        if set(map(type, ids)) != {str}:
            raise _NotGroupable
        self.keys = keys = set(ids)
        if len(keys) != len(ids):
            raise _NotGroupable
        self.contents = contents = (self.parts[0].column(first.content_field) if sliced
                                    else self._read(first.content_field, dicts))
        if not _TEXT.issuperset(map(type, contents)):
            raise _NotGroupable
        self.slot_columns = _columns(members, first.slot_names) or None
        self.saves = _GroupSaves(*self._save_columns())
        self.records: dict[int, SpanRecord] = {}
        self.settled = False
        self.removed: tuple[int, ...] = ()
        self._dicts_after: list | None = None

    def _parts(self, dicts: list) -> list[_Attributes]:
        """The members' attributes, type by type."""
        if self.span_type is not None:
            return [_Attributes(type(self.members[0]), self.span_type, range(len(dicts)), dicts)]
        types = [*map(type, self.members)]
        parts = []
        for kind, span_type in self.by_type.items():
            indices = [*compress(range(len(dicts)), map(is_, types, repeat(kind)))]
            parts.append(_Attributes(kind, span_type, indices, [*map(dicts.__getitem__, indices)]))
        return parts

    def _locate(self, index: int) -> tuple[_Attributes, int]:
        """The part holding the member at `index`, and its position there."""
        if len(self.parts) == 1:
            return self.parts[0], index
        kind = type(self.members[index])
        part = next(part for part in self.parts if part.kind is kind)
        return part, bisect_left(part.indices, index)

    def _read(self, name: str, dicts: list | None = None) -> list:
        """Field `name` of every member, now (`dicts`: their `__dict__`s, if read already)."""
        if self._direct:  # the field is the `__dict__` entry: read it there, past a `__getattr__` hook
            return [*map(itemgetter(name), dicts if dicts is not None else map(_DICT, self.members))]
        return [*map(attrgetter(name), self.members)]

    def _reading(self, name: str, dicts: list | None = None) -> Iterable[Any]:
        """What `_read` returns, as an iterator (read as it is consumed: no list of it is built)."""
        if self._direct:
            return map(itemgetter(name), dicts if dicts is not None else map(_DICT, self.members))
        return map(attrgetter(name), self.members)

    @staticmethod
    def _at(column: list, indices: Any) -> list:
        """The members of `column` at `indices` (a range of all of them, or a list)."""
        return column if type(indices) is range else [*map(column.__getitem__, indices)]

    def _save_columns(self) -> tuple[list, list, list]:
        """save_mutables over every member's values and slots, type by type (see _Attributes for
        which values can hold a mutable): the mutables and their copies, and the columns (fields)
        in which no value is truthy, so every dict, list, set or bytearray there is empty and
        identity is all there is to save (saved_of gives those their empty copies). A column of
        equal sets (pydantic's fields-set) shares one frozenset instead of a copy each."""
        mutables: list = []
        copies: list = []
        empty: list = []
        columns: list = []
        for part in self.parts:
            if part.candidates is None:
                values = part.all_values()
                if set(map(type, values)).isdisjoint(_MUTABLE):
                    continue  # the common plain class: text and numbers only
                values, saved = save_mutables(values)
                mutables += values
                copies += saved
                continue
            checked = (part.span_type.id_field, part.span_type.content_field)  # text: checked above
            columns += map(part.column, [name for name in part.candidates if name not in checked])
        for column in columns + (self.slot_columns or []):  # every type has the same slots
            saved = _save_column(column)
            if saved is None:
                empty.append(column)
            else:
                mutables += saved[0]
                copies += saved[1]
        return mutables, copies, empty

    def record(self, index: int) -> SpanRecord:
        """The SpanRecord of the member at `index` (made once)."""
        record = self.records.get(index)
        if record is None:
            part, position = self._locate(index)
            record = SpanRecord.__new__(SpanRecord)
            record.obj = self.members[index]
            record.span_type = part.span_type
            record.key = self.ids[index]
            record.in_container = True
            record.place = self.places[index]
            record.content = self.contents[index]
            record.content_saved = None
            record.state = part.state(position)
            record.slots = () if self.slot_columns is None else tuple([column[index] for column in self.slot_columns])
            record._saved = None
            record._group = (self.saves, part.candidates)  # not the group itself: no cycle to leave for the collector
            record.eager = None
            self.records[index] = record
        return record

    def all(self) -> list[SpanRecord]:
        return [*map(self.record, range(len(self.members)))]

    def untouched(self) -> bool:
        """Whether the container holds the same members (or holders holding them), at the same
        places, with the same ids."""
        container, members = self.container, self.members if self.holders is None else self.holders
        self._dicts_after = None
        try:
            if type(container) is dict:
                if not (len(container) == len(members) and all(map(is_, container, self.places))
                        and all(map(is_, container.values(), members))):
                    return False
            elif not (len(container) == len(members) and all(map(is_, container, members))):
                return False
            if self.holders is not None and not all(map(is_, map(attrgetter(self.attribute), members), self.members)):
                return False
            if self._direct:  # read once for this and changed_members, which the check calls next
                self._dicts_after = [*map(_DICT, self.members)]
            return all(map(is_, self._reading(self.parts[0].span_type.id_field, self._dicts_after), self.ids))
        except Exception:
            return False

    def pruned(self) -> bool:
        """Whether the container, a list, holds the members (or holders holding them) in their
        order with at most MAX_PRUNED of them taken out and nothing added, each kept one with the
        same id; if so, `removed` holds the indices of those taken out (found by identity with
        C-level scans, one per run of kept members, so no id is read twice or hashed)."""
        container, outer = self.container, self.members if self.holders is None else self.holders
        self.removed, self._dicts_after = (), None
        try:
            if type(container) is not list:
                return False
            now = [*container]
            gone = len(outer) - len(now)
            if not 0 < gone <= MAX_PRUNED:
                return False
            removed: list[int] = []
            kept = 0  # members of `now` matched so far; outer[kept + len(removed)] is the next to match
            while kept < len(now):
                start = kept + len(removed)
                offset = next(compress(counting(), map(is_not, islice(now, kept, None), islice(outer, start, None))), None)
                if offset is None:  # the rest of `now` is the members that follow
                    kept = len(now)
                    break
                kept += offset
                removed.append(kept + len(removed))
                if len(removed) > gone:
                    return False
            removed += range(kept + len(removed), len(outer))  # members after the last kept one
            if len(removed) != gone:
                return False
            spans = _without(self.members, removed)
            if self.holders is not None and not all(map(is_, map(attrgetter(self.attribute), now), spans)):
                return False
            id_field = self.parts[0].span_type.id_field
            dicts = [*map(_DICT, self.members)] if self._direct else None  # changed_members reads them next
            ids = ([*map(itemgetter(id_field), _without(dicts, removed))] if dicts is not None
                   else [*map(attrgetter(id_field), spans)])
            if not all(map(is_, ids, _without(self.ids, removed))):
                return False
        except Exception:
            return False
        self.removed, self._dicts_after = tuple(removed), dicts
        return True

    def changed_members(self, current: dict[Any, Any], fields: tuple[str, ...]) -> Iterable[int]:
        """The indices of the members that are not the span now at their id, or whose content or
        a field of `fields` is not the object it was, and those a prune took out of a settled
        group (every index when one cannot be read)."""
        count = len(self.members)
        dicts, self._dicts_after = (self._dicts_after if self.settled else None), None
        try:
            contents = self._reading(self.parts[0].span_type.content_field, dicts)
            changed = set(compress(range(count), map(is_not, contents, self.contents)))
            if self.settled:
                changed.update(self.removed)
            else:
                changed.update(compress(range(count), map(is_not, map(current.get, self.ids), self.members)))
            for name in fields:
                for part in self.parts:
                    now = [*map(attrgetter(name), self._at(self.members, part.indices))]
                    changed.update(compress(part.indices, map(is_not, now, part.column(name))))
        except Exception:
            return range(count)
        return sorted(changed)

    def summary_candidates(self, names: tuple[str, ...]) -> Iterable[int]:
        """The indices of the members that may be summaries: those the lineage registry knows, or
        with a value other than None in a field of `names`, or in their metadata dict under one of
        `names`; every member whose fields cannot be told from its `__dict__` (see _reads_state)."""
        candidates = set(LINEAGE.recorded_among(self.members))
        for part in self.parts:
            indices, span_type = part.indices, part.span_type
            extra = _reads_state(part.kind, span_type, names)
            if extra is None:
                candidates.update(indices)
                continue
            for name in names:
                if not part.lacks(name):
                    candidates.update(compress(indices, map(is_not, part.column(name), repeat(None))))
            if extra is not MISSING:  # pydantic's __getattr__ reads `__pydantic_extra__`: read those one by one
                candidates.update(compress(indices, self._at(self.slot_columns[extra], indices)))
            if span_type.metadata_field is None:
                continue
            metadata = part.column(span_type.metadata_field, MISSING)
            if set(map(type, metadata)) == _ONLY_DICTS:
                if not any(metadata):  # the common buffer: empty dicts name nothing
                    continue
            else:
                dicts = [*map(is_, map(type, metadata), repeat(dict))]
                candidates.update(compress(indices, map(is_not, dicts, repeat(True))))  # read one by one
                indices, metadata = [*compress(indices, dicts)], [*compress(metadata, dicts)]
            indices, metadata = [*compress(indices, metadata)], [*filter(None, metadata)]  # empty ones name nothing
            for name in names:
                candidates.update(compress(indices, map(is_not, map(_state_get, metadata, repeat(name)), repeat(None))))
        return sorted(candidates)


_state_get = dict.get
_ONLY_DICTS = {dict}
MAX_PRUNED = 16  # a changed list with more members taken out than this is read member by member


def _without(values: list, removed: list[int]) -> list:
    """`values` without the members at the sorted indices `removed`."""
    if len(removed) == 1:
        return values[:removed[0]] + values[removed[0] + 1:]
    bounds = [-1, *removed, len(values)]
    return [*chain.from_iterable(values[a + 1:b] for a, b in zip(bounds, bounds[1:]))]


def _reads_state(kind: type, span_type: SpanType, names: tuple[str, ...]) -> Any:
    """Whether reading the fields `names` and the metadata field of a `kind` instance gives its
    `__dict__` entries (None when the entry is absent): `kind` keeps the default attribute lookup
    and has no class attribute of those names. Returns None if not; else MISSING, or, for a
    pydantic model (whose `__getattr__` finds undeclared fields in `__pydantic_extra__`), the
    index of that slot."""
    plan = _SUMMARY_PLANS.values.get(id(kind), MISSING)
    if plan is MISSING:
        plan = _SUMMARY_PLANS.remember(kind, {})
    key = (names, span_type.metadata_field)
    if key in plan:
        return plan[key]
    fields = names + ((span_type.metadata_field,) if span_type.metadata_field else ())
    hook = _on_class(kind, "__getattr__")
    extra: Any = MISSING
    if hook is not None:
        pydantic = (getattr(hook, "__qualname__", None) == "BaseModel.__getattr__"
                    and getattr(hook, "__module__", None) == "pydantic.main"
                    and "__pydantic_extra__" in span_type.slot_names)
        extra = span_type.slot_names.index("__pydantic_extra__") if pydantic else None
    if kind.__getattribute__ is not object.__getattribute__ or any(
            name in klass.__dict__ for klass in kind.__mro__ for name in fields):
        extra = None
    plan[key] = extra
    return extra


_SUMMARY_PLANS = TypeCache()  # type -> {(names, metadata field): what _reads_state returns}


def _save_column(column: list) -> tuple[list, list] | None:
    """save_mutables over the values of one field of many spans, or None when no value there is
    truthy (one pass: None, and every builtin container there is empty). The pass asks each value
    for its truth, so a value of another type runs its own `__bool__` or `__len__`; one that raises
    (a numpy array, a hostile value) sends the column to the pass by type below. Equal sets share
    one frozenset (found with one C-level count; the others with one more pass)."""
    try:
        if not any(column):
            return None
    except Exception:
        pass
    kinds = set(map(type, column))
    if kinds.isdisjoint(_MUTABLE):
        return _NOTHING_SAVED
    try:
        if kinds == {set}:  # equal sets share one frozenset; the few others get their own
            first = frozenset(column[0])
            copies = [first] * len(column)
            if column.count(first) != len(column):
                for index in compress(range(len(column)), map(ne, column, repeat(first))):
                    copies[index] = frozenset(column[index])
            return column, copies
    except Exception:  # a member whose comparison raises: copied one by one
        pass
    return save_mutables(column)


class _GroupSaves:
    """The mutable values of a SpanGroup's members and their saved contents (see
    SpanGroup._save_columns), and what a member's record saved of them. Kept apart from the group:
    the records a group makes refer to this, so no group and its records form a reference cycle,
    which would keep the whole snapshot alive after the call until the garbage collector ran and
    make that collection walk and free it."""

    __slots__ = ("mutables", "copies", "empty_columns", "_copy_of")

    def __init__(self, mutables: list, copies: list, empty_columns: list) -> None:
        self.mutables, self.copies, self.empty_columns = mutables, copies, empty_columns
        self._copy_of: dict[int, Any] | None = None

    def of(self, record: SpanRecord, candidates: tuple[str, ...] | None) -> tuple[list, list]:
        """What a SpanRecord of the member `record` stands for would have saved of its mutable
        values (`candidates`: its part's fields that can hold them, None for every attribute)."""
        if not self.mutables and not self.empty_columns:
            return _NOTHING_SAVED
        if self._copy_of is None:
            copy_of = dict(zip(map(id, self.mutables), self.copies))
            for column in self.empty_columns:
                for value in compress(column, map(_IS_MUTABLE, map(type, column))):
                    copy_of.setdefault(id(value), _EMPTY_COPIES[type(value)])
            self._copy_of = copy_of
        state = record.state
        values = [*(state.values() if candidates is None else map(state.__getitem__, candidates)), *record.slots]
        return _saved_again([*compress(values, map(_IS_MUTABLE, map(type, values)))], self._copy_of, NESTED_DEPTH)


class _NotGroupable(Exception):
    """A container whose members a SpanGroup cannot take column by column."""


def _reads_dict_entries(kinds: Iterable[type], names: tuple[str, ...]) -> bool:
    """Whether the fields `names` of instances of `kinds` are entries of their `__dict__`: no type
    overrides `__getattribute__` or `__dict__`, or has a data descriptor for one of them (a
    `__getattr__` hook such as pydantic's is not reached for an attribute that is there)."""
    for kind in kinds:
        if kind.__getattribute__ is not object.__getattribute__ or not _no_data_descriptor(kind, names):
            return False
    return True


def _no_data_descriptor(kind: type, names: tuple[str, ...]) -> bool:
    """Whether `kind` keeps the default `__dict__` and has no data descriptor for a field of
    `names` (worked out once per type)."""
    plans = _READER_PLANS.values.get(id(kind))
    if plans is None:
        plans = _READER_PLANS.remember(kind, {})
    plan = plans.get(names)
    if plan is None:
        plan = plans[names] = type(_on_class(kind, "__dict__")) is GetSetDescriptorType and not any(
            hasattr(type(_on_class(kind, name)), "__set__") or hasattr(type(_on_class(kind, name)), "__delete__")
            for name in names)
    return plan


_READER_PLANS = TypeCache()  # type -> {field names: what _no_data_descriptor returns}


def _on_class(kind: type, name: str) -> Any:
    return next((klass.__dict__[name] for klass in kind.__mro__ if name in klass.__dict__), None)


_TEXT = frozenset({str, bytes})
_EMPTY_COPIES = {kind: kind() for kind in _MUTABLE}  # saved contents of empty containers (never changed)
_DICT = attrgetter("__dict__")


def take_group(container: Any, members: list, places: Any, reader: SpanReader, holders: list | None = None,
               attribute: str | None = None) -> SpanGroup | None:
    """A SpanGroup of `members` (the contents of `container`, or the spans its `holders` hold at
    `attribute`), or None if they are not all spans that can be taken column by column."""
    try:
        kinds = set(map(type, members))
        by_type = {kind: reader.span_type(next(m for m in members if type(m) is kind)) for kind in kinds} if len(
            kinds) > 1 else {type(members[0]): reader.span_type(members[0])}
        first = next(iter(by_type.values()))
        for span_type in by_type.values():
            if (span_type is None or span_type.eager_fields or span_type.id_field != first.id_field
                    or span_type.content_field != first.content_field or span_type.slot_names != first.slot_names):
                return None
        return SpanGroup(container, members, places, by_type, holders, attribute)
    except Exception:  # _NotGroupable, or a member whose fields cannot be read: one record each
        return None


def _members(container: Any) -> Iterable[tuple[Any, Any]]:
    """(place, member) pairs: keys of a mapping, indices of a sequence."""
    if isinstance(container, Mapping):
        return list(container.items())
    return enumerate(list(container))


def _first_member(container: Any) -> Any:
    try:
        if isinstance(container, Mapping):
            return next(iter(container.values()), MISSING)
        return container[0] if len(container) else MISSING
    except Exception:
        return MISSING


def _is_container(value: Any) -> bool:
    if isinstance(value, (str, bytes, bytearray)):
        return False
    return isinstance(value, (dict, *_SEQUENCES)) or isinstance(value, (Mapping, Sequence))


_SHAPES = TypeCache()  # type -> (whether it is a container, its slots)


def _shape(value: Any) -> tuple[bool, tuple[str, ...]]:
    shape = _SHAPES.values.get(id(type(value)))
    if shape is None:
        shape = _SHAPES.remember(type(value), (_is_container(value), slot_names(type(value))))
    return shape


def attributes_of(obj: Any) -> list[tuple[str, Any]]:
    """An object's instance attributes and filled slots; reading one that raises skips it."""
    attributes = read(obj, "__dict__")
    found = list(attributes.items()) if isinstance(attributes, dict) else []
    for name in _shape(obj)[1]:
        value = read(obj, name)
        if value is not MISSING:
            found.append((name, value))
    return found


def _span_attribute(holder: Any, reader: SpanReader) -> str | None:
    """The one attribute of `holder` that is a span, when its others cannot reach one: text,
    numbers, None, sets (not walked), empty containers (LlamaIndex `NodeWithScore`: `node`, and
    `score` and pydantic's private state)."""
    if _shape(holder)[0] or reader.span_type(holder) is not None:
        return None
    found = None
    for name, value in attributes_of(holder):
        if reader.span_type(value) is not None:
            if found is not None:
                return None
            found = name
        elif not (_is_atom(value) or type(value) in _NOT_WALKED_CONTAINERS or (_shape(value)[0] and not len(value))):
            return None
    return found


_NOT_WALKED_CONTAINERS = frozenset({set, frozenset})
_NOT_WALKED = (type, FunctionType, MethodType, BuiltinFunctionType, ModuleType)


def _is_atom(value: Any) -> bool:
    return type(value) in _ATOMS or isinstance(value, _NOT_WALKED)


class Binding:
    """`holder.attribute` pointed at `value` (a span or a container reaching spans) before the call."""

    __slots__ = ("holder", "attribute", "value")

    def __init__(self, holder: Any, attribute: str, value: Any) -> None:
        self.holder = holder
        self.attribute = attribute
        self.value = value

    def restore(self) -> list[str]:
        if read(self.holder, self.attribute) is self.value:
            return []
        try:
            object.__setattr__(self.holder, self.attribute, self.value)
        except Exception:
            try:
                setattr(self.holder, self.attribute, self.value)
            except Exception:
                return [f"attribute {self.attribute!r} of a {type(self.holder).__name__}"]
        return [] if read(self.holder, self.attribute) is self.value else [
            f"attribute {self.attribute!r} of a {type(self.holder).__name__}"]


class ContainerRecord:
    """A list, tuple or mapping reaching spans, copied shallowly."""

    __slots__ = ("container", "copy")

    def __init__(self, container: Any) -> None:
        self.container = container
        self.copy = dict(container) if isinstance(container, Mapping) else list(container)

    def changed(self) -> bool:
        container = self.container
        if isinstance(container, Mapping):
            current = dict(container)
            return not _dict_same(current, self.copy)
        current = list(container)
        return len(current) != len(self.copy) or not all(map(is_, current, self.copy))

    def restore(self) -> list[str]:
        """Refill the container as it was if its members changed; return what could not be."""
        if not self.changed():
            return []
        container = self.container
        try:
            if isinstance(container, MutableMapping):
                current = dict(container)
                for key in [k for k in current if k not in self.copy]:
                    del container[key]
                if list(container) == list(self.copy):
                    for key, value in self.copy.items():
                        if container[key] is not value:
                            container[key] = value
                else:
                    container.clear()
                    container.update(self.copy)
            elif isinstance(container, list):
                container[:] = self.copy
            elif isinstance(container, (deque, MutableSequence)):
                container.clear()
                container.extend(self.copy)
        except Exception:
            pass
        return [f"a {type(container).__name__} of spans"] if self.changed() else []


class _Walk:
    """The walk from a call's arguments to its spans, shared by the snapshot before the call and
    the reading of the spans after it."""

    def __init__(self, reader: SpanReader) -> None:
        self.reader = reader
        self._seen: dict[int, bool] = {}  # id -> whether it reaches a span

    def visit(self, value: Any, depth: int = 0, place: Any = MISSING) -> bool:
        """Walk from `value`; return whether it reaches a span. `place` is the index or key of the
        container member the walk is in (MISSING outside any container)."""
        if _is_atom(value):
            return False
        seen = self._seen.get(id(value))
        if seen is not None:
            return seen
        self._seen[id(value)] = False
        try:
            reached = self._visit(value, depth, place)
        except Exception:  # a hostile container or attribute: what it hides goes unchecked
            reached = False
        self._seen[id(value)] = reached
        return reached

    def _visit(self, value: Any, depth: int, place: Any) -> bool:
        span_type_of = self.reader.span_type
        span_type = span_type_of(value)
        if span_type is not None:
            self.span(value, span_type, place)
            return True
        if _shape(value)[0]:
            first = _first_member(value)
            if first is MISSING:
                return False
            if span_type_of(first) is not None:
                self.span_container(value)
                return True
            if depth >= MAX_DEPTH:
                return False
            if isinstance(value, Mapping) and len(value) <= SMALL_MAPPING:
                reached = False
                for key, member in _members(value):
                    reached = self.visit(member, depth + 1, key) or reached
            else:
                members = iter(_members(value))
                index, first = next(members)
                if (type(value) is list or type(value) is tuple) and depth + 1 < MAX_DEPTH and self.holder_group(
                        value, first):
                    return True
                if not self.visit(first, depth + 1, index):
                    return False
                reached = True
                self._visit_like(first, members, depth + 1)
            if reached:
                self.holder_container(value)
            return reached
        if depth >= MAX_DEPTH or isinstance(value, type):
            return False
        reached = False
        for name, attribute in attributes_of(value):
            if self.visit(attribute, depth + 1, place):
                reached = True
                self.bound(value, name, attribute)
        return reached

    def _visit_like(self, first: Any, members: Iterable[tuple[Any, Any]], depth: int) -> None:
        """Visit the other members of a uniform container of holders. When the first member is a
        holder whose spans sit directly in its attributes (`NodeWithScore.node`), members of its
        type are read at those attributes alone."""
        span_type_of = self.reader.span_type
        holder_type = type(first)
        names = None
        if not _shape(first)[0] and span_type_of(first) is None:
            reaching = [(name, value) for name, value in attributes_of(first) if self._seen.get(id(value))]
            if reaching and all(span_type_of(value) is not None for _, value in reaching):
                names = [name for name, _ in reaching]
        for index, member in members:
            if names is not None and type(member) is holder_type:
                try:
                    inner = [(name, getattr(member, name)) for name in names]
                    types = [span_type_of(value) for _, value in inner]
                except Exception:
                    types = [None]
                if None not in types:
                    for (name, value), span_type in zip(inner, types):
                        self.span(value, span_type, index)
                        self.bound(member, name, value)
                    continue
            self.visit(member, depth, index)

    def span(self, obj: Any, span_type: SpanType, place: Any) -> None:
        raise NotImplementedError

    def span_container(self, container: Any) -> None:
        raise NotImplementedError

    def holder_container(self, container: Any) -> None:
        """A container of holders or containers that reaches spans."""

    def holder_group(self, container: list | tuple, first: Any) -> bool:
        """Take a list or tuple of holders (`first` is its first member) in one go, as a SpanGroup;
        return whether it was."""
        return False

    def bound(self, holder: Any, attribute: str, value: Any) -> None:
        """`holder.attribute` is `value`, which reaches spans."""


class CallSnapshot(_Walk):
    """Every span, span container and binding to them reachable from one call's arguments, before
    the call. The spans of a uniform buffer are kept in a SpanGroup, whose records are made only
    when they are read."""

    def __init__(self, reader: SpanReader) -> None:
        super().__init__(reader)
        self._records: dict[Any, SpanRecord] = {}
        self._all_records: list[SpanRecord | SpanGroup] = []  # in the order the walk found them
        self._added: list[SpanRecord | SpanGroup] = []  # what the argument being walked added
        self.groups: list[SpanGroup] = []
        self._group_keys: set = set()
        self.containers: list[ContainerRecord] = []
        self.bindings: list[Binding] = []
        self.direct: list[SpanRecord] = []
        self.arguments: list[Any] = []
        self.reaching: list[Any] = []  # the arguments that reach a span
        self._shadowed_ids: set[int] = set()  # spans sharing a key with an earlier, different span

    @property
    def records(self) -> dict[Any, SpanRecord]:
        """The record of each key: the first span found at it."""
        self.ungroup()
        return self._records

    @property
    def all_records(self) -> list[SpanRecord]:
        """The records of every span found, in the order the walk found them."""
        self.ungroup()
        return self._all_records  # type: ignore[return-value]

    def found_spans(self) -> bool:
        return bool(self._all_records)

    def ungroup(self) -> None:
        """Make the records of every group's members, in walk order."""
        if not self.groups:
            return
        flat: list[SpanRecord | SpanGroup] = []
        records: dict[Any, SpanRecord] = {}
        for entry in self._all_records:
            if type(entry) is SpanGroup:
                members = entry.all()
                flat += members
                records.update(zip(entry.ids, members))
                if entry.holders is not None:
                    self.bindings += [Binding(holder, entry.attribute, span)
                                      for holder, span in zip(entry.holders, entry.members)]
            else:
                flat.append(entry)
                if self._records.get(entry.key) is entry:
                    records[entry.key] = entry
        self._all_records, self._records = flat, records
        self.groups, self._group_keys = [], set()

    def add_argument(self, value: Any) -> list[SpanRecord | SpanGroup]:
        """Snapshot the spans `value` reaches; return their records and groups."""
        self.arguments.append(value)
        self._added = []
        if self.visit(value):
            self.reaching.append(value)
        return self._added

    def has_key(self, key: Any) -> bool:
        """Whether a span was found at `key` (TypeError for an unhashable value)."""
        return key in self._records or key in self._group_keys

    def new_spans(self, current: dict[Any, Any]) -> list[Any]:
        """The spans of `current` at keys no span had before the call."""
        return [*map(current.__getitem__, current.keys() - self._records.keys() - self._group_keys)]

    def span_types(self) -> set[SpanType]:
        """The span types of the spans found."""
        found: set[SpanType] = set()
        for entry in self._all_records:
            if type(entry) is SpanGroup:
                found.update(entry.by_type.values())
            else:
                found.add(entry.span_type)
        return found

    def span(self, obj: Any, span_type: SpanType, place: Any) -> None:
        self._record(obj, span_type, place is not MISSING, None if place is MISSING else place)

    def holder_container(self, container: Any) -> None:
        self.containers.append(ContainerRecord(container))

    def bound(self, holder: Any, attribute: str, value: Any) -> None:
        self.bindings.append(Binding(holder, attribute, value))

    def span_container(self, container: Any) -> None:
        saved = ContainerRecord(container)
        self.containers.append(saved)
        if self._group(container, saved.copy):
            return
        records, all_records, span_type_of, key_of = self._records, self._all_records, self.reader.span_type, self.reader.key
        types = self.reader.cached_types
        for place, member in _members(container):  # the hot loop: one pass per span, kept inline
            try:
                member_type = types.get(id(type(member)), MISSING)
                if member_type is MISSING:
                    member_type = span_type_of(member)
                if member_type is None:
                    continue
                span_id = getattr(member, member_type.id_field, None)
                key = span_id if type(span_id) is str else key_of(member, member_type)
                if key in self._group_keys:
                    self.ungroup()
                    records, all_records = self._records, self._all_records
                if key not in records:
                    record = SpanRecord(member, member_type, key, True, place)
                    records[key] = record
                    all_records.append(record)
                    self._added.append(record)
                else:
                    self._record(member, member_type, True, place)
            except Exception:  # a member whose fields cannot be read is not checked
                continue

    def holder_group(self, container: list | tuple, first: Any) -> bool:
        try:
            attribute = _span_attribute(first, self.reader)
            if attribute is None:
                return False
            saved = ContainerRecord(container)
            holders = saved.copy
            if set(map(type, holders)) != {type(first)}:
                return False
            spans = [*map(attrgetter(attribute), holders)]
        except Exception:
            return False
        group = take_group(container, spans, range(len(spans)), self.reader, holders, attribute)
        if not self._add_group(group):
            return False
        self.containers.append(saved)
        return True

    def _group(self, container: Any, copy: Any) -> bool:
        """Take the spans of `container` (whose shallow copy is `copy`) as a SpanGroup, if they
        can be and their ids are new to the snapshot."""
        kind = type(container)
        if kind is dict:
            group = take_group(container, [*copy.values()], [*copy], self.reader)
        elif kind is list or kind is tuple:
            group = take_group(container, copy, range(len(copy)), self.reader)
        else:
            return False
        return self._add_group(group)

    def _add_group(self, group: SpanGroup | None) -> bool:
        if group is None or not (group.keys.isdisjoint(self._group_keys) and self._records.keys().isdisjoint(group.keys)):
            return False
        self.groups.append(group)
        self._all_records.append(group)
        self._added.append(group)
        self._group_keys = group.keys if not self._group_keys else self._group_keys | group.keys
        return True

    def _record(self, obj: Any, span_type: SpanType, in_container: bool, place: Any) -> None:
        key = self.reader.key(obj, span_type)
        if key in self._group_keys:
            self.ungroup()
        existing = self._records.get(key)
        if existing is not None and (existing.obj is obj or id(obj) in self._shadowed_ids):
            existing.in_container = existing.in_container or in_container
            return
        record = SpanRecord(obj, span_type, key, in_container, place)
        if existing is None:
            self._records[key] = record
        else:
            self._shadowed_ids.add(id(obj))
        self._all_records.append(record)
        self._added.append(record)
        if not in_container:
            self.direct.append(record)

    def lock_targets(self) -> list[Any]:
        """The arguments reaching spans, the containers of spans and the spans held directly: what
        a guarded call uses (the guard serialises calls on them)."""
        return (self.reaching + [record.container for record in self.containers]
                + [record.obj for record in self.direct])

    def current_spans(self) -> dict[Any, Any]:
        """The spans reachable now from the call's arguments, by key; without the members of the
        groups it finds settled (see SpanGroup): records_to_check adds those it returns."""
        for group in self.groups:
            group.settled, group.removed = False, ()
        current = self._walk_current(self.groups)
        if any(not group.keys.isdisjoint(current) for group in self.groups if group.settled):
            for group in self.groups:  # another span now sits at a group member's id: read them all
                group.settled, group.removed = False, ()
            current = self._walk_current(())
        return current

    def _walk_current(self, groups: Iterable[SpanGroup]) -> dict[Any, Any]:
        current = _CurrentSpans(self.reader, groups)
        for value in self.arguments:
            current.visit(value)
        for record in self.direct:  # a span passed or held directly is still that span
            current.spans.setdefault(self.reader.key(record.obj, record.span_type), record.obj)
        return current.spans

    def records_to_check(self, current: dict[Any, Any], fields: tuple[str, ...] = (),
                         first_only: bool = False) -> list[SpanRecord]:
        """The records a check reads: all, except the members of a group that are the span now at
        their id and hold the same content object, and the same object in each of `fields`
        (nothing a check reads changed). The members of a settled group returned are put in
        `current`. `first_only`: only the record of each key (the first span found at it)."""
        records: list[SpanRecord] = []
        for entry in self._all_records:
            if type(entry) is SpanGroup:
                indices = entry.changed_members(current, fields)
                found = [*map(entry.record, indices)]
                if entry.settled:  # those still in the container are still the spans at their ids
                    removed = entry.removed
                    current.update((record.key, record.obj) for index, record in zip(indices, found)
                                   if index not in removed)
                records += found
            elif not first_only or self._records.get(entry.key) is entry:
                records.append(entry)
        return records

    def restore(self) -> tuple[int, int, list[str]]:
        """Restore what the call changed, then re-read it: return how many containers (and bindings)
        and spans were restored, and what could not be restored."""
        self.ungroup()
        problems: list[str] = []
        containers = 0
        for binding in self.bindings:
            if read(binding.holder, binding.attribute) is not binding.value:
                containers += 1
                problems += binding.restore()
        for record in self.containers:
            if record.changed():
                containers += 1
                problems += record.restore()
        spans = 0
        for record in self.all_records:
            if record.changed():
                spans += 1
                problems += [f"span {describe_key(record.key)}: {what}" for what in record.restore()]
        return containers, spans, problems


class _CurrentSpans(_Walk):
    def __init__(self, reader: SpanReader, groups: Iterable[SpanGroup]) -> None:
        super().__init__(reader)
        self.spans: dict[Any, Any] = {}
        self._groups = {id(group.container): group for group in groups}

    def span(self, obj: Any, span_type: SpanType, place: Any) -> None:
        self.spans.setdefault(self.reader.key(obj, span_type), obj)

    def holder_group(self, container: list | tuple, first: Any) -> bool:
        """A settled group, or holders of one type whose spans sit at the one attribute
        (`NodeWithScore.node`) read in one go."""
        if self._settle(container):
            return True
        try:
            attribute = _span_attribute(first, self.reader)
            if attribute is None:
                return False
            holders = [*container]
            return set(map(type, holders)) == {type(first)} and self._add_column([*map(attrgetter(attribute), holders)])
        except Exception:
            return False

    def _settle(self, container: Any) -> bool:
        group = self._groups.get(id(container))
        if group is not None and group.container is container and (group.untouched() or group.pruned()):
            group.settled = True
            return True
        return False

    def span_container(self, container: Any) -> None:
        if self._settle(container):
            return
        members = [*(container.values() if isinstance(container, Mapping) else container)]
        if self._add_column(members):
            return
        spans, span_type_of, key_of = self.spans, self.reader.span_type, self.reader.key
        types = self.reader.cached_types
        for member in members:
            try:
                span_type = types.get(id(type(member)), MISSING)
                if span_type is MISSING:
                    span_type = span_type_of(member)
                if span_type is not None:
                    span_id = getattr(member, span_type.id_field, None)
                    key = span_id if type(span_id) is str else key_of(member, span_type)
                    if key not in spans:
                        spans[key] = member
            except Exception:
                continue

    def _add_column(self, members: list) -> bool:
        """Take spans whose types share their id field, with distinct string ids, none already
        found, in one go (C-level maps); return whether they were."""
        kinds = set(map(type, members))
        if len(kinds) == 1:
            span_types = [self.reader.span_type(members[0])]
        else:  # a chat history of several message types
            span_types = [self.reader.span_type(next(m for m in members if type(m) is kind)) for kind in kinds]
        if None in span_types or len({span_type.id_field for span_type in span_types}) != 1:
            return False
        try:
            ids = [*map(attrgetter(span_types[0].id_field), members)]
        except Exception:
            return False
        if set(map(type, ids)) != {str}:
            return False
        found = dict(zip(ids, members))
        if len(found) != len(members):
            return False
        if not self.spans:
            self.spans = found
        elif self.spans.keys().isdisjoint(found):
            self.spans.update(found)
        else:
            return False
        return True
