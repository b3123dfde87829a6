"""Context buffer for the support agent.

Spans are plain dicts (see ``records.make_span``) kept in a ``ContextStore`` that is
persisted as one JSON file per session.  The decision log is JSON lines next to it.
"""

from .decision_log import DecisionLog
from .records import fingerprint, make_span, set_text, sha_of
from .store import ContextStore

__all__ = [
    "ContextStore",
    "DecisionLog",
    "fingerprint",
    "make_span",
    "set_text",
    "sha_of",
]

__version__ = "0.4.2"
