"""Case-file research agent built on llama-index-core workflows."""

from li_workflow.buffer import ContextBuffer
from li_workflow.decision_log import DecisionLog
from li_workflow.spans import ContextSpan, StaleArtifactError, content_digest

__all__ = [
    "ContextBuffer",
    "ContextSpan",
    "DecisionLog",
    "StaleArtifactError",
    "content_digest",
]

__version__ = "0.4.0"
