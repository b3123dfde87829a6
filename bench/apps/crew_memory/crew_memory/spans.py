"""Shared context buffer used by every agent in the crew."""

import dataclasses
import hashlib
import itertools
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field

_WS = re.compile(r"[ \t]+")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Span:
    span_id: str
    content: str
    kind: str = "note"
    produced_by: str = "ingest"
    version: int = 0
    content_hash: str = ""
    embedding: list[float] | None = None
    offsets: list[tuple[int, int]] | None = None
    tombstoned: bool = False
    tombstoned_at: float | None = None
    created_at: float = field(default_factory=time.time)

    def __post_init__(self) -> None:
        self.content_hash = self.content_hash or digest(self.content)


class SpanStore:
    def __init__(self) -> None:
        self.spans: dict[str, Span] = {}
        self._holders: dict[str, set[str]] = defaultdict(set)
        self._ids = itertools.count(1)

    def add(self, content: str, kind: str = "note", produced_by: str = "ingest") -> Span:
        span = Span(f"sp-{next(self._ids):05d}", content, kind=kind, produced_by=produced_by)
        self.spans[span.span_id] = span
        return span

    def live(self) -> list[Span]:
        return [s for s in self.spans.values() if not s.tombstoned]

    def hold(self, span_id: str, holder: str) -> None:
        self._holders[span_id].add(holder)

    def holders(self, span_id: str) -> set[str]:
        return self._holders.get(span_id, set())

    def rewrite(self, span_id: str, new_content: str, op: str) -> Span:
        span = self.spans[span_id]
        if new_content == span.content:
            return span
        span.content = new_content
        span.version += 1
        span.content_hash = digest(new_content)
        span.produced_by = f"rewrite:{op}"
        span.embedding = None
        span.offsets = None
        return span

    def fork(self, span_id: str, new_content: str, op: str) -> Span:
        old = self.spans[span_id]
        fresh = Span(f"{span_id}@{op}:{old.version + 1}", new_content, kind=old.kind,
                     produced_by=f"rewrite:{op}", version=old.version + 1)
        self.spans[fresh.span_id] = fresh
        self.tombstone(span_id)
        return fresh

    def tombstone(self, span_id: str) -> None:
        span = self.spans[span_id]
        span.tombstoned, span.tombstoned_at = True, time.time()

    def drop(self, span_id: str) -> Span | None:
        self._holders.pop(span_id, None)
        return self.spans.pop(span_id, None)

    def normalize_whitespace(self, span_id: str) -> Span:
        span = self.spans[span_id]
        tidy = "\n".join(_WS.sub(" ", line).rstrip() for line in span.content.splitlines())
        self.spans[span_id] = dataclasses.replace(span, content=tidy)
        return self.spans[span_id]
