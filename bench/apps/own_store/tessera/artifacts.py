"""Registry of things derived from spans: citations, token offset maps, and who holds what."""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import NamedTuple, Optional

import attrs

from tessera.chunks import token_offsets
from tessera.records import Span, SpanKey


class StaleArtifactError(RuntimeError):
    pass


class CitationRecord(NamedTuple):
    citation_id: str
    span_id: str
    start: int
    end: int
    source_url: Optional[str] = None
    label: str = ""


@attrs.frozen
class OffsetMap:
    span_id: str
    version: int
    content_hash: str
    token_spans: tuple[tuple[int, int], ...]

    @classmethod
    def build(cls, span: Span) -> "OffsetMap":
        return cls(span.span_id, span.version, span.content_hash, tuple(token_offsets(span.content)))

    def matches(self, span: Span) -> bool:
        return (span.span_id, span.version, span.content_hash) == (
            self.span_id,
            self.version,
            self.content_hash,
        )

    def slice(self, span: Span, first: int, last: int) -> str:
        if not self.matches(span):
            raise StaleArtifactError(
                f"offset map for {self.span_id}@{self.version} used against "
                f"{span.span_id}@{span.version}"
            )
        start = self.token_spans[first][0]
        end = self.token_spans[last][1]
        if end > len(span.content):
            raise StaleArtifactError(f"offsets end at {end}, span is {len(span.content)} chars")
        return span.content[start:end]


class ArtifactRegistry:
    def __init__(self) -> None:
        self._citations: dict[str, CitationRecord] = {}
        self._offsets: dict[SpanKey, OffsetMap] = {}
        self._latest: dict[str, SpanKey] = {}
        self._holders: dict[str, set[str]] = defaultdict(set)

    def cite(
        self, span: Span, start: int, end: int, *, url: Optional[str] = None, label: str = ""
    ) -> CitationRecord:
        rec = CitationRecord(uuid.uuid4().hex[:10], span.span_id, start, end, url, label)
        self._citations[rec.citation_id] = rec
        self._holders[span.span_id].add(f"cite:{rec.citation_id}")
        return rec

    def citation(self, citation_id: str) -> CitationRecord:
        return self._citations[citation_id]

    def offsets_for(self, span: Span) -> OffsetMap:
        key = span.key()
        om = self._offsets.get(key)
        if om is None:
            om = OffsetMap.build(span)
            self._offsets[key] = om
            self._latest[span.span_id] = key
        return om

    def latest_offsets(self, span_id: str) -> Optional[OffsetMap]:
        key = self._latest.get(span_id)
        return self._offsets.get(key) if key else None

    def hold(self, holder: str, span_id: str) -> None:
        self._holders[span_id].add(holder)

    def release(self, holder: str, span_id: str) -> None:
        self._holders[span_id].discard(holder)

    def holders_of(self, span_id: str) -> frozenset[str]:
        return frozenset(self._holders.get(span_id, ()))
