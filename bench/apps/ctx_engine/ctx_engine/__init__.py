"""ctx_engine: the context window that sits between the chat front end and the model."""
from .audit import AuditTrail, Decision
from .models import Origin, Segment, Turn, fingerprint
from .registry import ArtifactRegistry
from .window import ContextWindow

__version__ = "0.4.1"
