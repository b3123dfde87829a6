"""agents_desk: a support-desk assistant on top of the OpenAI Agents SDK."""

from .models import Citation, ContextSpan, DecisionEntry, SummaryRecord
from .store import ContextStore

__all__ = ["Citation", "ContextSpan", "ContextStore", "DecisionEntry", "SummaryRecord"]
__version__ = "0.3.0"
