"""Research assistant with a managed context buffer, built on Atomic Agents."""

__all__ = ["__version__"]
__version__ = "0.1.0"
