from __future__ import annotations

from typing import Any

from .buffer import SpanBuffer
from .caches import EmbeddingCache
from .citations import cite, citation_payload, quote

BUFFER = SpanBuffer()
CACHE = EmbeddingCache()


def handle_cite(body: dict[str, Any]) -> dict[str, Any]:
    span = BUFFER.spans[body["span_id"]]
    ref = cite(span, int(body["start"]), int(body["end"]))
    return {**citation_payload(ref), "quote": quote(BUFFER, ref)}


def handle_embed(body: dict[str, Any]) -> dict[str, Any]:
    span = BUFFER.spans[body["span_id"]]
    vec = CACHE.lookup_span(span)
    if vec is None:
        vec = [float(len(span.text))]
        CACHE.remember_span(span, vec)
    return {"id": span.span_id, "dims": len(vec)}
