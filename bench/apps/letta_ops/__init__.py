"""letta_ops: an on-call operations assistant built on Letta agents."""

__version__ = "0.4.0"
