"""Evidence lookup and prompt assembly for the answer step."""

from __future__ import annotations

from typing import Iterable, Optional, TypedDict

from tessera.artifacts import ArtifactRegistry, StaleArtifactError
from tessera.buffer import ContextBuffer
from tessera.records import Span


class Evidence(TypedDict):
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int
    score: float


def quote(buf: ContextBuffer, registry: ArtifactRegistry, citation_id: str) -> str:
    c = registry.citation(citation_id)
    span = buf.require(c.span_id)
    text = span.content[c.start : c.end]
    return text.strip()


def quotes_for_answer(
    buf: ContextBuffer, registry: ArtifactRegistry, citation_ids: Iterable[str]
) -> list[tuple[str, str]]:
    out = []
    for cid in citation_ids:
        rec = registry.citation(cid)
        out.append((rec.label or rec.citation_id, quote(buf, registry, cid)))
    return out


def quote_evidence(buf: ContextBuffer, ev: Evidence) -> Optional[str]:
    span = buf.get(ev["span_id"])
    if span is None:
        return None
    if span.version != ev["version"] or span.content_hash != ev["content_hash"]:
        raise StaleArtifactError(
            f"evidence for {ev['span_id']} was taken at v{ev['version']}, span is v{span.version}"
        )
    if ev["end"] > len(span.content):
        raise StaleArtifactError(f"evidence end {ev['end']} past span length {len(span.content)}")
    return span.content[ev["start"] : ev["end"]]


def make_evidence(span: Span, start: int, end: int, score: float) -> Evidence:
    return Evidence(
        span_id=span.span_id,
        version=span.version,
        content_hash=span.content_hash,
        start=start,
        end=end,
        score=score,
    )


def render_context(buf: ContextBuffer, *, preview_chars: int = 0) -> str:
    parts: list[str] = []
    for span in buf.live():
        body = span.content
        if preview_chars and len(body) > preview_chars:
            body = body[:preview_chars] + " …"
        parts.append(f"<{span.role} id={span.span_id} v={span.version}>\n{body}\n</{span.role}>")
    return "\n".join(parts)
