"""Context-managed research team built on Agno."""

__version__ = "0.3.0"
