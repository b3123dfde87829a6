"""Runtime guard for operators that edit an agent's context spans. Standard library only.

    from runtime_guard import guard

    @guard("rewrite")
    def compress_task(buffer, span_id): ...
"""

from runtime_guard.artifacts import SpanCache, check_artifact
from runtime_guard.decision_log import DecisionLog
from runtime_guard.errors import (
    NoSpanFoundWarning, ProvenanceError, SpanGuardWarning, SpanInvariantError, StaleSpanError,
    SummaryChainError,
)
from runtime_guard.guard import ENV_VAR, guard
from runtime_guard.schema import SpanSchema, exempt

__all__ = [
    "ENV_VAR", "DecisionLog", "NoSpanFoundWarning", "ProvenanceError", "SpanCache", "SpanGuardWarning",
    "SpanInvariantError", "SpanSchema", "StaleSpanError", "SummaryChainError", "check_artifact", "exempt",
    "guard",
]
