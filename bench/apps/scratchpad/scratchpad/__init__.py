"""Scratchpad: a small planning agent with its own context window and compactor."""

from scratchpad.models import Segment, Turn, digest

__all__ = ["Segment", "Turn", "digest"]
