"""Errors and warnings the guard raises, and how their messages name spans: by ids, versions, hash
prefixes and lengths, never by content."""

from __future__ import annotations

from typing import Any


class SpanInvariantError(RuntimeError):
    """A guarded call broke an invariant of the spans it edited."""


class StaleSpanError(SpanInvariantError):
    """A span changed content at a kept id without a new version and hash, or an artifact derived
    from a span no longer matches it."""


class ProvenanceError(SpanInvariantError):
    """A span was pruned without a decision-log entry naming it, or the decision log was rewritten."""


class SummaryChainError(SpanInvariantError):
    """A summary was summarized again without lineage to sources that are still addressable."""


class SpanGuardWarning(UserWarning):
    """A violation reported under the `warn` or `repair` mode."""


class NoSpanFoundWarning(UserWarning):
    """A guarded operator was called with no span the guard could find; that call went unchecked."""


def safe_repr(value: Any) -> str:
    """repr(value), or its type's name when its `__repr__` fails (a message is always built)."""
    try:
        text = repr(value)
        return text if isinstance(text, str) else f"<{type(value).__name__}>"
    except Exception:
        return f"<{type(value).__name__} whose repr failed>"


def describe_key(key: Any) -> str:
    """How a message names a span: its id, or its type when it has none."""
    if isinstance(key, tuple) and len(key) == 2 and key[0] == "<object>":
        return "without an id"
    return safe_repr(key)


def short_hash(value: Any) -> str:
    """The 8-character prefix a message shows of a stored hash."""
    if value is None:
        return "none"
    try:
        return str(value)[:8]
    except Exception:
        return "?"


def content_length(content: Any) -> str:
    return str(len(content)) if isinstance(content, (str, bytes, list)) else "?"
