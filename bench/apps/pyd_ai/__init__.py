"""Casework: a support-case research agent with its own context store."""

from .agent import build_agent
from .deps import CaseDeps
from .spans import ContextStore, Span

__all__ = ["CaseDeps", "ContextStore", "Span", "build_agent"]
