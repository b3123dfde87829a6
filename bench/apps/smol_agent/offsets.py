"""Sentence offset maps over spans and agent observations."""

from __future__ import annotations

import re

from smolagents.memory import ActionStep

from .models import ContextSpan, OffsetMap
from .store import StaleSpanError

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _SENTENCE.finditer(text) if m.group().strip()]


_step_offsets: dict[int, list[tuple[int, int]]] = {}


def offsets_for_step(step: ActionStep) -> list[tuple[int, int]]:
    return _step_offsets.setdefault(step.step_number, sentence_spans(step.observations or ""))


def observation_sentence(step: ActionStep, i: int) -> str:
    start, end = offsets_for_step(step)[i]
    return (step.observations or "")[start:end]


def build_offset_map(span: ContextSpan) -> OffsetMap:
    return OffsetMap(span_id=span.span_id, version=span.version, sentences=sentence_spans(span.content))


def sentence_at(span: ContextSpan, omap: OffsetMap, i: int) -> str:
    start, end = omap.sentences[i]
    return span.content[start:end]


def sentence_at_checked(span: ContextSpan, omap: OffsetMap, i: int) -> str:
    if omap.span_id != span.span_id or omap.version != span.version:
        raise StaleSpanError(f"offset map for {omap.span_id}@{omap.version} used on version {span.version}")
    start, end = omap.sentences[i]
    if end > len(span.content):
        raise StaleSpanError(f"offset {end} beyond length {len(span.content)}")
    return span.content[start:end]


class OffsetCache:
    def __init__(self) -> None:
        self._maps: dict[tuple[str, int, str], OffsetMap] = {}

    def get(self, span: ContextSpan) -> OffsetMap:
        key = (span.span_id, span.version, span.content_hash)
        omap = self._maps.get(key)
        if omap is None:
            omap = build_offset_map(span)
            self._maps[key] = omap
        return omap
