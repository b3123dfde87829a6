"""Token accounting for the context window."""

from __future__ import annotations

from typing import Iterable

import tiktoken

from sk_agents.spans import ContextSpan

_ENC = tiktoken.get_encoding("o200k_base")


class TokenBudget:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._counts: dict[str, int] = {}

    def count(self, span: ContextSpan) -> int:
        n = self._counts.get(span.span_id)
        if n is None:
            n = len(_ENC.encode(span.text))
            self._counts[span.span_id] = n
        return n

    def used(self, spans: Iterable[ContextSpan]) -> int:
        return sum(self.count(s) for s in spans)

    def over(self, spans: Iterable[ContextSpan]) -> int:
        return max(self.used(spans) - self.limit, 0)


class VersionedTokenCounter:
    def __init__(self) -> None:
        self._counts: dict[tuple[str, int, str], int] = {}

    def count(self, span: ContextSpan) -> int:
        key = span.key
        if key not in self._counts:
            self._counts[key] = len(_ENC.encode(span.text))
        return self._counts[key]

    def forget(self, span_id: str) -> None:
        for key in [k for k in self._counts if k[0] == span_id]:
            del self._counts[key]
