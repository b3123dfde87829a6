"""smol_agent: a research assistant with a managed context buffer, built on smolagents."""

__version__ = "0.1.0"
