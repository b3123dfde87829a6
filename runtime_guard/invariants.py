"""The invariant each kind of operator must keep, checked against a call's snapshot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Iterable

from runtime_guard.decision_log import DecisionLog
from runtime_guard.lineage import LINEAGE
from runtime_guard.schema import MISSING, SpanReader, SpanType
from runtime_guard.snapshot import CallSnapshot, SpanRecord


def describe_key(key: Any) -> str:
    """How a message names a span: its id, or its type when it has none."""
    if isinstance(key, tuple) and len(key) == 2 and key[0] == "<object>":
        return "without an id"
    return repr(key)


def short_hash(value: Any) -> str:
    """The 8-character prefix a message shows of a stored hash."""
    return "none" if value is None else str(value)[:8]


def content_length(content: Any) -> str:
    return str(len(content)) if isinstance(content, (str, bytes)) else "?"


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
    except TypeError:
        return False


def _unchanged(old: Any, new: Any) -> bool:
    if old is new:
        return True
    return isinstance(old, (int, float, str, bytes, tuple)) and type(old) is type(new) and old == new


def _content_changed(old: Any, new: Any) -> bool:
    return old is not new and old != new


def check_rewrite(snapshot: CallSnapshot, current: dict[Any, Any], copy_on_rewrite: bool) -> list[Finding]:
    """Spans kept at their id whose content changed without a greater version, a valid hash and
    reset derived fields (or, with copy_on_rewrite, any content change at a kept id)."""
    reader = snapshot.reader
    findings = []
    for record in snapshot.all_records:
        at_id = current.get(record.key)
        if at_id is record.obj and getattr(at_id, record.span_type.content_field, None) is record.content:
            continue  # the common case: same object at its id, same str object as content
        # the object itself, if it kept its id (held elsewhere, it is still that span), and
        # whatever object now sits at its id
        kept = reader.key(record.obj, record.span_type) == record.key
        for obj in (record.obj if kept else None, at_id if at_id is not record.obj else None):
            if obj is None:
                continue
            span_type = reader.span_type(obj) or record.span_type
            new_content = getattr(obj, span_type.content_field, None)
            if not _content_changed(record.content, new_content):
                continue
            finding = _rewrite_finding(reader, record, obj, span_type, new_content, copy_on_rewrite)
            if finding is not None:
                findings.append(finding)
    return findings


def _rewrite_finding(reader: SpanReader, record: SpanRecord, obj: Any, span_type: SpanType,
                     new_content: Any, copy_on_rewrite: bool) -> Finding | None:
    head = (f"span {describe_key(record.key)} changed content at a kept id "
            f"(len {content_length(record.content)} -> {content_length(new_content)})")
    if copy_on_rewrite:
        return Finding(f"{head}; copy_on_rewrite requires a new id for new content", obj)
    problems: list[str] = []
    repair: dict[str, Any] | None = {}
    if span_type.version_field is None and span_type.hash_field is None:
        return Finding(f"{head}; its type {type(obj).__name__} has neither a version nor a hash, so no "
                       f"holder can notice the change (write a new id, or exempt the type)", obj)
    if span_type.version_field is not None:
        new_version = getattr(obj, span_type.version_field, None)
        if not _greater(record.version, new_version):
            problems.append(f"version {record.version!r} -> {new_version!r} is not greater")
            old = record.version if isinstance(record.version, (int, float)) else 0
            repair[span_type.version_field] = old + 1
    if span_type.has_stored_hash:
        new_hash = getattr(obj, span_type.hash_field, None)
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
        new = getattr(obj, name, None)
        if new is not None and _unchanged(old, new):
            problems.append(f"derived field {name!r} was neither reset nor recomputed")
            if repair is not None:
                repair[name] = None
    if not problems:
        return None
    return Finding(f"{head}; " + "; ".join(problems), obj, repair)


def _values(entry: Any) -> Iterable[Any]:
    if isinstance(entry, Mapping):
        return entry.values()
    if isinstance(entry, (list, tuple, set, frozenset)):
        return entry
    attributes = getattr(entry, "__dict__", None)
    return attributes.values() if isinstance(attributes, dict) else ()


def named_ids(entries: Iterable[Any]) -> set[Any]:
    """The ids a list of decision-log entries names: values, attributes and members of collection
    values."""
    names: set[Any] = set()
    for entry in entries:
        for value in _values(entry):
            members = value if isinstance(value, (list, tuple, set, frozenset)) else (value,)
            for member in members:
                try:
                    names.add(member)
                except TypeError:
                    pass
    return names


def _entry_state(entry: Any) -> Any:
    if isinstance(entry, Mapping):
        return dict(entry)
    attributes = getattr(entry, "__dict__", None)
    return dict(attributes) if isinstance(attributes, dict) else entry


class LogSnapshot:
    """The decision log before a prune call: its length, and for a plain list, every entry."""

    def __init__(self, log: Any) -> None:
        self.log = log
        self.length = len(log)
        self.entries = None if isinstance(log, DecisionLog) else list(log)
        self.states = None if self.entries is None else [_entry_state(e) for e in self.entries]

    def rewrites(self) -> list[str]:
        """How the call broke append-only: entries removed or changed."""
        if len(self.log) < self.length:
            return [f"decision log lost {self.length - len(self.log)} entries (it must be append-only)"]
        if self.entries is None:
            return []
        changed = [i for i, (old, state) in enumerate(zip(self.entries, self.states))
                   if self.log[i] is not old or _entry_state(old) != state]
        if changed:
            return [f"decision log entries {changed[:10]} were replaced or changed (it must be append-only)"]
        return []

    def new_entries(self) -> list[Any]:
        """Entries added during the call."""
        return list(self.log)[self.length:]

    def restore(self) -> None:
        """Put the log back as it was before the call."""
        if self.entries is None:
            self.log._truncate(self.length)
            return
        for entry, state in zip(self.entries, self.states):
            if state is not entry:
                target = entry if isinstance(entry, Mapping) else entry.__dict__
                if dict(target) != state:
                    target.clear()
                    target.update(state)
        self.log[:] = self.entries


def is_decision_log(value: Any) -> bool:
    """Whether `value` can serve as a decision log: a DecisionLog or a mutable list of entries."""
    return isinstance(value, DecisionLog) or (
        isinstance(value, Sequence) and not isinstance(value, (str, bytes, tuple)) and hasattr(value, "__setitem__"))


def check_prune(snapshot: CallSnapshot, current: dict[Any, Any], log: LogSnapshot | None,
                tombstone_markers: tuple[str, ...]) -> list[Finding]:
    """Spans removed or tombstoned without a decision-log entry naming them, and log rewrites."""
    pruned: list[tuple[SpanRecord, str]] = []
    for key, record in snapshot.records.items():
        obj = current.get(key)
        if obj is None:
            if record.in_container:
                pruned.append((record, "removed"))
            continue
        span_type = snapshot.reader.span_type(obj) or record.span_type
        content = getattr(obj, span_type.content_field, None)
        if (isinstance(content, str) and content.strip() in tombstone_markers
                and _content_changed(record.content, content)):
            pruned.append((record, "replaced by a tombstone marker"))
            continue
        for name, old in zip(record.span_type.tombstone_flags, record.flags):
            if not old and getattr(obj, name, None):
                pruned.append((record, f"flagged {name}"))
                break
    findings = [Finding(text) for text in (log.rewrites() if log is not None else [])]
    if not pruned:
        return findings
    if log is None:
        return findings + [Finding(f"span {describe_key(r.key)} was {how} but no decision log was found "
                                   f"(pass one as an argument named like a decision log, or decision_log=)")
                           for r, how in pruned]
    names = named_ids(log.new_entries())
    for record, how in pruned:
        if record.key not in names:
            findings.append(Finding(f"span {describe_key(record.key)} (version {record.version!r}, "
                                    f"len {content_length(record.content)}) was {how} with no decision-log "
                                    f"entry naming it added during the call"))
    return findings


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
    metadata = getattr(obj, span_type.metadata_field, None) if span_type.metadata_field else None

    def field(name: str) -> Any:
        value = getattr(obj, name, MISSING)
        if value is MISSING and metadata is not None:
            value = metadata.get(name, MISSING)
        return None if value is MISSING else value

    produced_by = [field(n) for n in vocabulary.summary_provenance_fields]
    is_summary = any(isinstance(v, str) and v.startswith(vocabulary.summary_provenance_prefixes)
                     for v in produced_by) or any(field(n) for n in vocabulary.summary_flags)
    if not is_summary:
        return None
    sources: set[Any] = set()
    for name in vocabulary.lineage_keywords:
        value = field(name)
        if value is not None:
            sources |= ids_in(value, reader)
    return frozenset(sources)


def check_summarize(snapshot: CallSnapshot, inputs: list[SpanRecord], call_lineage: set[Any]) -> list[Finding]:
    """Inputs that are summaries, unless the call passes lineage covering their sources and every
    id in it is addressable in the call."""
    findings = []
    addressable = snapshot.records.keys()
    unreachable = sorted(map(repr, call_lineage - addressable))
    for record in inputs:
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
            why = f"lineage misses its sources {sorted(map(repr, sources - call_lineage))[:10]}"
        findings.append(Finding(f"input span {describe_key(record.key)} (version {record.version!r}, "
                                f"len {content_length(record.content)}) is itself a summary; {why}"))
    return findings
