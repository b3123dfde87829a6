"""lg_store: a LangGraph agent that keeps its context as addressable spans."""

__version__ = "0.1.0"
