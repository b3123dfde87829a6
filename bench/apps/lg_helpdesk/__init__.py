"""lg_helpdesk: a LangGraph customer-support agent with long-term customer memory."""

from .graph import build_graph
from .settings import HelpdeskSettings, load_settings

__all__ = ["build_graph", "HelpdeskSettings", "load_settings"]
__version__ = "0.7.2"
