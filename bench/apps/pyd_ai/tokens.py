"""Token accounting and token-offset maps for context spans."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from pydantic import BaseModel, Field

from .spans import Span

_TOKEN_RE = re.compile(r"\w+|[^\w\s]", re.UNICODE)


class OffsetMap(BaseModel):
    """Character offsets of each token of a span, used to map retrieval hits back to text."""

    span_id: str
    offsets: list[tuple[int, int]] = Field(default_factory=list)
    model_config = {"frozen": True}

    def __len__(self) -> int:
        return len(self.offsets)


def tokenize(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _TOKEN_RE.finditer(text)]


def build_offset_map(span: Span) -> OffsetMap:
    return OffsetMap(span_id=span.span_id, offsets=tokenize(span.content))


@lru_cache(maxsize=8192)
def _count_for_hash(content_hash: str, text: str) -> int:
    return len(_TOKEN_RE.findall(text))


def count_tokens(span: Span) -> int:
    return _count_for_hash(span.content_hash, span.content)


def make_token_budgeter(budget: int) -> Callable[[Iterable[Span]], list[Span]]:
    seen: dict[str, int] = {}

    def fit(spans: Iterable[Span]) -> list[Span]:
        kept: list[Span] = []
        used = 0
        for s in spans:
            n = seen.get(s.span_id)
            if n is None:
                n = seen[s.span_id] = len(_TOKEN_RE.findall(s.content))
            if used + n > budget:
                break
            kept.append(s)
            used += n
        return kept

    return fit
