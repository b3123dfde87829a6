"""tessera: the agent's context buffer, its rewrite operators and the stores around it."""

from tessera.records import Span, SpanKey, Note, ToolTurn, Chunk, Passage, content_digest, new_span_id
from tessera.buffer import ContextBuffer
from tessera.decisions import DecisionLog

__all__ = [
    "Span",
    "SpanKey",
    "Note",
    "ToolTurn",
    "Chunk",
    "Passage",
    "content_digest",
    "new_span_id",
    "ContextBuffer",
    "DecisionLog",
]

__version__ = "0.7.2"
