"""ctxkeeper: a long-running research assistant built on Langroid."""

__version__ = "0.3.0"
