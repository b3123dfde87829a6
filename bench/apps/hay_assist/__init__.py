"""hay_assist: a support desk assistant built on Haystack."""

from .app import HayAssistant

__all__ = ["HayAssistant"]
__version__ = "0.4.0"
