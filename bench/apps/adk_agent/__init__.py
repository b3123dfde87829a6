"""briefdesk: a research-briefing assistant built on Google ADK."""

__all__ = ["__version__"]

__version__ = "0.3.1"
