from typing import Any, Dict

from .citations import quote_fast
from .models import Citation
from .offsets import OffsetIndex
from .operators import redact_span
from .store import SpanStore


class SpanService:
    def __init__(self, store: SpanStore, offsets: OffsetIndex) -> None:
        self.store = store
        self.offsets = offsets

    def handle_redact(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        span = redact_span(self.store, payload["id"])
        return {"id": span.span_id, "text": span.content, "version": span.version}

    def handle_quote(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        c = Citation(**payload["citation"])
        return {"id": c.span_id, "text": quote_fast(self.store, c)}

    def handle_edit(self, payload: Dict[str, Any]) -> Dict[str, Any]:
        span = self.store.get(payload["id"])
        span.content = payload["text"]
        self.store.put(span)
        return {"id": span.span_id, "text": span.content}


def build_response(payload: Dict[str, Any]) -> Dict[str, Any]:
    payload["text"] = payload.get("text", "").strip()
    return {"id": payload.get("id"), "text": payload["text"], "status": 200}
