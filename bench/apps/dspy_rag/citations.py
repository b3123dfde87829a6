"""Turning ``dspy.experimental.Citations`` into anchors and footnotes."""

from __future__ import annotations

import dspy

from .models import CitationAnchor, CitedSpan, StaleSpanError
from .store import PassageStore
from .textutil import content_digest


def anchors_from(prediction: dspy.Prediction, passages: list[dspy.Example]) -> list[CitationAnchor]:
    anchors: list[CitationAnchor] = []
    for citation in prediction.citations or []:
        if not 0 <= citation.document_index < len(passages):
            continue
        passage = passages[citation.document_index]
        anchors.append(
            CitationAnchor(
                pid=passage.pid,
                version=passage.version,
                content_hash=passage.content_hash,
                start=citation.start_char_index,
                end=citation.end_char_index,
                cited_text=citation.cited_text,
            )
        )
    return anchors


def resolve(anchor: CitationAnchor, store: PassageStore) -> str:
    passage = store.get_any(anchor.pid)
    if passage is None:
        raise StaleSpanError(f"cited passage {anchor.pid} is gone")
    if passage.version != anchor.version or content_digest(passage.text) != anchor.content_hash:
        raise StaleSpanError(f"citation into {anchor.pid}@{anchor.version} no longer matches the passage")
    return passage.text[anchor.start : anchor.end]


def cited_spans(prediction: dspy.Prediction, passages: list[dspy.Example]) -> list[CitedSpan]:
    return [
        CitedSpan(
            pid=passages[c.document_index].pid,
            start=c.start_char_index,
            end=c.end_char_index,
            quote=c.cited_text,
        )
        for c in (prediction.citations or [])
        if 0 <= c.document_index < len(passages)
    ]


def render_footnotes(spans: list[CitedSpan], store: PassageStore) -> list[str]:
    lines = []
    for n, span in enumerate(spans, start=1):
        passage = store.get_any(span.pid)
        if passage is None:
            lines.append(f"[{n}] (source removed)")
            continue
        lines.append(f"[{n}] {passage.title or span.pid}: \"{passage.text[span.start:span.end]}\"")
    return lines
