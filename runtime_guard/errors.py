"""Errors and warnings the guard raises. Their messages name ids, versions, hash prefixes and
lengths, never span content."""

from __future__ import annotations


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
