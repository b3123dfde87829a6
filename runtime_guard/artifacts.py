"""Artifacts derived from a span (embeddings, offset maps, token counts) checked against it."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any, Callable

from runtime_guard.errors import StaleSpanError, content_length, describe_key, short_hash
from runtime_guard.schema import MISSING, SpanReader, SpanSchema, reader_for, sha256_hex


def _read_span(reader: SpanReader, span: Any) -> tuple[Any, Any, Any, Any]:
    span_type = reader.span_type(span)
    if span_type is None:
        raise TypeError(f"{type(span).__name__} is not a span (no id and text content field found)")
    content = getattr(span, span_type.content_field)
    version = getattr(span, span_type.version_field) if span_type.version_field else None
    if span_type.hash_field is not None:
        content_hash = getattr(span, span_type.hash_field)
    else:
        content_hash = (span_type.digest or sha256_hex)(content)
    return reader.key(span, span_type), content, version, content_hash


class SpanCache:
    """Derived artifacts keyed on (span_id, version, content_hash).

    `get(span)` returns the artifact for the span's current state, deriving it with `derive(span)`
    when the span is new or has moved to a new version or hash (the stale artifact is dropped). A
    span whose content changed while its version and hash did not raises StaleSpanError: no key can
    tell the two states apart. Spans without a hash field are keyed on the digest of their content.
    """

    def __init__(self, derive: Callable[[Any], Any], *, schema: SpanSchema | None = None) -> None:
        self._derive = derive
        self._reader = reader_for(schema)
        self._entries: dict[Any, tuple[tuple[Any, Any], Any, Any]] = {}
        self._lock = threading.Lock()

    def get(self, span: Any) -> Any:
        """The artifact derived from `span` as it is now."""
        span_id, content, version, content_hash = _read_span(self._reader, span)
        key = (version, content_hash)
        with self._lock:
            entry = self._entries.get(span_id)
        if entry is not None and entry[0] == key:
            if entry[1] is content or entry[1] == content:
                return entry[2]
            raise StaleSpanError(
                f"span {describe_key(span_id)} changed content (len {content_length(entry[1])} -> "
                f"{content_length(content)}) but kept version {version!r} and hash {short_hash(content_hash)}; "
                f"its cached artifact can no longer be told apart from a fresh one")
        artifact = self._derive(span)
        with self._lock:
            self._entries[span_id] = (key, content, artifact)
        return artifact

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"SpanCache({len(self._entries)} entries)"


def _field(artifact: Any, names: tuple[str, ...]) -> tuple[str | None, Any]:
    for name in names:
        if isinstance(artifact, Mapping):
            value = artifact.get(name, MISSING)
        else:
            value = getattr(artifact, name, MISSING)
        if value is not MISSING:
            return name, value
    return None, MISSING


def _offsets(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    members = value.values() if isinstance(value, Mapping) else value
    if isinstance(members, (str, bytes)) or not hasattr(members, "__iter__"):
        return []
    return [offset for member in members for offset in _offsets(member)]


def check_artifact(artifact: Any, span: Any, *, schema: SpanSchema | None = None) -> None:
    """Raise StaleSpanError unless `artifact` (a mapping or object recording the span id, version
    and/or content hash it was derived from, and optionally offsets) still matches `span`.

    Raises TypeError if the artifact records neither a version nor a hash.
    """
    reader = reader_for(schema)
    vocabulary = reader.vocabulary
    span_id, content, version, content_hash = _read_span(reader, span)
    _, recorded_id = _field(artifact, vocabulary.id_fields)
    if recorded_id is not MISSING and recorded_id != span_id:
        raise StaleSpanError(f"artifact was derived from span {describe_key(recorded_id)}, "
                             f"not span {describe_key(span_id)}")
    _, recorded_version = _field(artifact, vocabulary.version_fields)
    _, recorded_hash = _field(artifact, vocabulary.hash_fields)
    if recorded_version is MISSING and recorded_hash is MISSING:
        raise TypeError("artifact records neither a version nor a content hash of its span")
    if recorded_version is not MISSING and recorded_version != version:
        raise StaleSpanError(f"artifact of span {describe_key(span_id)} records version {recorded_version!r}; "
                             f"the span is at version {version!r}")
    if recorded_hash is not MISSING and recorded_hash != content_hash:
        raise StaleSpanError(f"artifact of span {describe_key(span_id)} records hash {short_hash(recorded_hash)}; "
                             f"the span's hash is {short_hash(content_hash)}")
    for name in vocabulary.offset_fields:
        _, value = _field(artifact, (name,))
        if value is MISSING:
            continue
        past = [offset for offset in _offsets(value) if offset > len(content)]
        if past:
            raise StaleSpanError(f"artifact of span {describe_key(span_id)} has {name} offset {max(past)} past "
                                 f"the span's current length {len(content)}")
