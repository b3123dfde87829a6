"""crew_flow: a CrewAI research flow with a managed context buffer."""

from crew_flow.spans import ContextBuffer, ContextSpan, SpanRef, digest
from crew_flow.state import ResearchState

__all__ = ["ContextBuffer", "ContextSpan", "ResearchState", "SpanRef", "digest"]

__version__ = "0.4.2"
