"""Planner agent with a managed context buffer, built on Semantic Kernel."""

from sk_agents.decision_log import DecisionLog
from sk_agents.settings import AgentSettings
from sk_agents.spans import ContextSpan, SpanStore, digest

__all__ = ["AgentSettings", "ContextSpan", "DecisionLog", "SpanStore", "digest"]

__version__ = "0.4.2"
