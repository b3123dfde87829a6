"""lc_rag: retrieval QA over company documents."""

from .settings import RagSettings, load_settings

__all__ = ["RagSettings", "load_settings"]
__version__ = "0.4.0"
