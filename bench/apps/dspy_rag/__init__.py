"""dspy_rag: cited question answering over a local passage store."""

__version__ = "0.1.0"
