"""The invariant each kind of operator must keep, checked against a call's snapshot."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain
from typing import Any, Iterable

from runtime_guard.decision_log import LogSnapshot
from runtime_guard.errors import content_length, describe_key, safe_repr, short_hash
from runtime_guard.lineage import LINEAGE
from runtime_guard.schema import MISSING, SpanReader, SpanType, read
from runtime_guard.snapshot import UNREADABLE, CallSnapshot, SpanGroup, SpanRecord


class Finding:
    """One broken invariant. `repair` lists what a rewrite repair must set, or None if it cannot."""

    __slots__ = ("text", "current", "repair")

    def __init__(self, text: str, current: Any = None, repair: dict[str, Any] | None = None) -> None:
        self.text = text
        self.current = current
        self.repair = repair


def _greater(old: Any, new: Any) -> bool:
    if new is None:
        return False
    if old is None:
        return True
    try:
        return bool(new > old)
    except Exception:
        return False


def _unchanged(old: Any, new: Any) -> bool:
    if old is new:
        return True
    return isinstance(old, (int, float, str, bytes, tuple)) and type(old) is type(new) and old == new


def _content_changed(old: Any, new: Any) -> bool:
    if old is new:
        return False
    if old is UNREADABLE or new is UNREADABLE:
        return False
    try:
        return bool(old != new)
    except Exception:  # a value that cannot be compared counts as changed
        return True


def _read_content(obj: Any, span_type: SpanType) -> Any:
    value = read(obj, span_type.content_field)
    return UNREADABLE if value is MISSING else value


def check_rewrite(snapshot: CallSnapshot, current: dict[Any, Any], copy_on_rewrite: bool) -> list[Finding]:
    """Spans kept at their id whose content changed without a greater version, a valid hash and
    reset derived fields (or, with copy_on_rewrite, any content change at a kept id)."""
    reader = snapshot.reader
    findings = []
    for record in snapshot.records_to_check(current):
        at_id = current.get(record.key)
        try:
            same = at_id is record.obj and getattr(at_id, record.span_type.content_field, None) is record.content
        except Exception:  # content that cannot be read now: unchanged if it could not be read before
            same = at_id is record.obj and record.content is UNREADABLE
        if same and (record.content_saved is None or not record.content_mutated()):
            continue  # the common case: same object at its id, same str object as content
        # the object itself, if it kept its id (held elsewhere, it is still that span), and
        # whatever object now sits at its id
        kept = reader.key(record.obj, record.span_type) == record.key
        for obj in (record.obj if kept else None, at_id if at_id is not record.obj else None):
            if obj is None:
                continue
            span_type = reader.span_type(obj) or record.span_type
            new_content = _read_content(obj, span_type)
            if not (_content_changed(record.content, new_content)
                    or (obj is record.obj and new_content is record.content and record.content_mutated())):
                continue
            finding = _rewrite_finding(reader, record, obj, span_type, new_content, copy_on_rewrite)
            if finding is not None:
                findings.append(finding)
    return findings


def _rewrite_finding(reader: SpanReader, record: SpanRecord, obj: Any, span_type: SpanType,
                     new_content: Any, copy_on_rewrite: bool) -> Finding | None:
    if copy_on_rewrite:
        return Finding(f"{_rewrite_head(record, new_content)}; copy_on_rewrite requires a new id for new content",
                       obj)
    problems: list[str] = []
    repair: dict[str, Any] | None = {}
    if span_type.version_field is None and span_type.hash_field is None:
        return Finding(f"{_rewrite_head(record, new_content)}; its type {type(obj).__name__} has neither a "
                       f"version nor a hash, so no holder can notice the change (write a new id, or exempt "
                       f"the type)", obj)
    if span_type.version_field is not None:
        new_version = read(obj, span_type.version_field)
        new_version = None if new_version is MISSING else new_version
        if not _greater(record.version, new_version):
            problems.append(f"version {safe_repr(record.version)} -> {safe_repr(new_version)} is not greater")
            old = record.version if isinstance(record.version, (int, float)) else 0
            repair[span_type.version_field] = old + 1
    if span_type.has_stored_hash:
        new_hash = read(obj, span_type.hash_field)
        new_hash = None if new_hash is MISSING else new_hash
        digest = reader.digest_for(record.span_type, record.content, record.hash)
        if digest is not None:
            expected = digest(new_content)
            if new_hash != expected:
                problems.append(f"stored hash {short_hash(new_hash)} is not the digest of the new content "
                                f"({short_hash(expected)})")
                repair[span_type.hash_field] = expected
        elif new_hash is None or new_hash == record.hash:
            problems.append(f"stored hash {short_hash(new_hash)} did not change with the content "
                            f"(digest function unknown)")
            repair = None
    for name, old in zip(record.span_type.derived_fields, record.derived):
        new = read(obj, name)
        if new is not None and new is not MISSING and _unchanged(old, new):
            problems.append(f"derived field {name!r} was neither reset nor recomputed")
            if repair is not None:
                repair[name] = None
    if not problems:
        return None
    return Finding(f"{_rewrite_head(record, new_content)}; " + "; ".join(problems), obj, repair)


def _rewrite_head(record: SpanRecord, new_content: Any) -> str:
    """How a rewrite finding names its span (built only for a finding: a correct rewrite needs none)."""
    return (f"span {describe_key(record.key)} changed content at a kept id "
            f"(len {content_length(record.content)} -> {content_length(new_content)})")


def _values(entry: Any) -> Iterable[Any]:
    if isinstance(entry, Mapping):
        return entry.values()
    if isinstance(entry, (list, tuple, set, frozenset)):
        return entry
    attributes = read(entry, "__dict__")
    return attributes.values() if isinstance(attributes, dict) else ()


POSITION_FIELDS = ("index", "position")


class EntryNames:
    """What a list of decision-log entries names: hashable values (ids), objects (by identity) and
    positions (`index`/`position` fields), among an entry's values, attributes and the members of
    its collection values."""

    def __init__(self, entries: Iterable[Any]) -> None:
        self.values: set[Any] = set()
        self.objects: set[int] = set()
        self.positions: set[Any] = set()
        for entry in entries:
            if isinstance(entry, Mapping):
                for name in POSITION_FIELDS:
                    if name in entry:
                        self.positions.add(entry[name])
            for value in list(_values(entry)):
                members = value if isinstance(value, (list, tuple, set, frozenset)) else (value,)
                for member in members:
                    self.objects.add(id(member))
                    try:
                        self.values.add(member)
                    except Exception:
                        pass
            for name in POSITION_FIELDS:
                position = read(entry, name) if not isinstance(entry, Mapping) else MISSING
                if position is not MISSING:
                    self.positions.add(position)

    def names(self, record: SpanRecord) -> bool:
        """Whether an entry names the span of `record`: its id; or, for a span without an id, the
        span object itself, or its pre-call position (list index or mapping key) in its container."""
        if not (isinstance(record.key, tuple) and record.key[:1] == ("<object>",)):
            try:
                return record.key in self.values
            except Exception:
                return False
        if id(record.obj) in self.objects:
            return True
        place = record.place
        if place is None:
            return False
        try:
            return place in self.positions or (not isinstance(place, int) and place in self.values)
        except Exception:
            return False

    def __contains__(self, value: Any) -> bool:
        try:
            return value in self.values
        except Exception:
            return False


def check_prune(snapshot: CallSnapshot, current: dict[Any, Any], log: LogSnapshot | None,
                tombstone_markers: tuple[str, ...], edit_ids: tuple = ()) -> list[Finding]:
    """Spans removed or tombstoned without a decision-log entry naming them, and log rewrites.

    An entry added during the call covers the spans it names. An entry anywhere in the log that
    names the edit the call performs (one of `edit_ids`, as `log.has_rationale(edit_id)` checks)
    covers every span the call prunes, unless that value is the id of one of the call's spans."""
    pruned: list[tuple[SpanRecord, str]] = []
    flags = tuple({name: None for span_type in snapshot.span_types()
                   for name in span_type.tombstone_flags})
    for record in snapshot.records_to_check(current, flags, first_only=True):
        obj = current.get(record.key)
        if obj is None:
            if record.in_container:
                pruned.append((record, "removed"))
            continue
        span_type = snapshot.reader.span_type(obj) or record.span_type
        content = _read_content(obj, span_type)
        if (isinstance(content, str) and content.strip() in tombstone_markers
                and _content_changed(record.content, content)):
            pruned.append((record, "replaced by a tombstone marker"))
            continue
        for name, old in zip(record.span_type.tombstone_flags, record.flags):
            flag = read(obj, name)
            if not old and flag is not MISSING and _truthy(flag):
                pruned.append((record, f"flagged {name}"))
                break
    findings = [Finding(text) for text in (log.rewrites() if log is not None else [])]
    if not pruned:
        return findings
    if log is None:
        return findings + [Finding(f"span {describe_key(r.key)} was {how} but no decision log was found "
                                   f"(pass one as an argument named like a decision log, or decision_log=)")
                           for r, how in pruned]
    edits = [e for e in edit_ids if not _is_span_id(e, snapshot)]  # an "edit id" naming a span is that span
    if edits and any(edit in EntryNames(log.all_entries()) for edit in edits):
        return findings
    names = EntryNames(log.new_entries())
    for record, how in pruned:
        if not names.names(record):
            findings.append(Finding(f"span {describe_key(record.key)} (version {safe_repr(record.version)}, "
                                    f"len {content_length(record.content)}) was {how} with no decision-log "
                                    f"entry naming it added during the call"))
    return findings


def _is_span_id(value: Any, snapshot: CallSnapshot) -> bool:
    try:
        return snapshot.has_key(value)
    except Exception:
        return True


def _truthy(value: Any) -> bool:
    try:
        return bool(value)
    except Exception:
        return False


def ids_in(value: Any, reader: SpanReader) -> set[Any]:
    """The span ids a lineage value names: an id, spans, or a collection of either."""
    members = value if isinstance(value, (list, tuple, set, frozenset)) else (
        value.values() if isinstance(value, Mapping) else (value,))
    ids: set[Any] = set()
    for member in members:
        span_type = reader.span_type(member)
        if span_type is not None:
            ids.add(reader.key(member, span_type))
        elif member is not None:
            try:
                ids.add(member)
            except TypeError:
                pass
    return ids


def summary_sources(record: SpanRecord, reader: SpanReader) -> frozenset | None:
    """The source ids of a span that is a summary (empty if unknown), or None if it is not one."""
    known = LINEAGE.sources(record.obj)
    if known is not None:
        return known
    obj, span_type, vocabulary = record.obj, record.span_type, reader.vocabulary
    metadata = read(obj, span_type.metadata_field) if span_type.metadata_field else None
    metadata = None if metadata is MISSING else metadata

    def field(name: str) -> Any:
        value = read(obj, name)
        if value is MISSING and metadata is not None:
            try:
                value = metadata.get(name, MISSING)
            except Exception:
                value = MISSING
        return None if value is MISSING else value

    produced_by = [field(n) for n in vocabulary.summary_provenance_fields]
    is_summary = any(isinstance(v, str) and v.startswith(vocabulary.summary_provenance_prefixes)
                     for v in produced_by) or any(_truthy(field(n)) for n in vocabulary.summary_flags)
    if not is_summary:
        return None
    sources: set[Any] = set()
    for name in vocabulary.lineage_keywords:
        value = field(name)
        if value is not None:
            sources |= ids_in(value, reader)
    return frozenset(sources)


def check_summarize(snapshot: CallSnapshot, inputs: list[SpanRecord | SpanGroup],
                    call_lineage: set[Any]) -> list[Finding]:
    """Inputs (records, and groups of them) that are summaries, unless the call passes lineage
    covering their sources and every id in it is addressable in the call."""
    findings = []
    unreachable = sorted(map(safe_repr, [key for key in call_lineage if not _is_span_id(key, snapshot)]))
    vocabulary = snapshot.reader.vocabulary
    names = vocabulary.summary_provenance_fields + vocabulary.summary_flags
    records = chain.from_iterable(map(entry.record, entry.summary_candidates(names)) if type(entry) is SpanGroup
                                  else (entry,) for entry in inputs)
    for record in records:
        sources = summary_sources(record, snapshot.reader)
        if sources is None:
            continue
        if call_lineage and sources <= call_lineage and not unreachable:
            continue
        if not call_lineage:
            why = "the call passes no lineage to its sources"
        elif unreachable:
            why = f"lineage names ids no longer addressable: {', '.join(unreachable[:10])}"
        else:
            why = f"lineage misses its sources {sorted(map(safe_repr, sources - call_lineage))[:10]}"
        findings.append(Finding(f"input span {describe_key(record.key)} (version {safe_repr(record.version)}, "
                                f"len {content_length(record.content)}) is itself a summary; {why}"))
    return findings
