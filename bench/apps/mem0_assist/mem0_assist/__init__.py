"""mem0_assist: a personal assistant that remembers things about its user."""

__version__ = "0.3.0"
