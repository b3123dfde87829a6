"""In-process context buffer mirrored into a LlamaIndex docstore."""

from __future__ import annotations

import re
import time
from typing import Callable, Iterable, Optional

from llama_index.core.storage.docstore import SimpleDocumentStore
from llama_index.core.storage.docstore.types import BaseDocumentStore

from li_workflow.decision_log import DecisionLog
from li_workflow.spans import ContextSpan, content_digest

_WS = re.compile(r"[ \t\u00a0]+")
_BLANKS = re.compile(r"\n{3,}")


def _collapse_ws(text: str) -> str:
    return _BLANKS.sub("\n\n", _WS.sub(" ", text)).strip()


class ContextBuffer:
    def __init__(
        self,
        docstore: Optional[BaseDocumentStore] = None,
        log: Optional[DecisionLog] = None,
    ) -> None:
        self._spans: dict[str, ContextSpan] = {}
        self.docstore = docstore or SimpleDocumentStore()
        self.log = log or DecisionLog()

    def __contains__(self, span_id: str) -> bool:
        return span_id in self._spans

    def add(self, span: ContextSpan) -> ContextSpan:
        self._spans[span.span_id] = span
        self.docstore.add_documents([span.to_node()], allow_update=True)
        return span

    def extend(self, spans: Iterable[ContextSpan]) -> None:
        for span in spans:
            self.add(span)

    def get(self, span_id: str) -> ContextSpan:
        return self._spans[span_id]

    def find(self, span_id: str) -> Optional[ContextSpan]:
        return self._spans.get(span_id)

    def live(self) -> list[ContextSpan]:
        return [s for s in self._spans.values() if not s.is_tombstoned]

    def tombstoned(self) -> list[ContextSpan]:
        return [s for s in self._spans.values() if s.is_tombstoned]

    def sync(self, span: ContextSpan) -> None:
        self.docstore.add_documents([span.to_node()], allow_update=True)

    def normalize(self, span_id: str) -> ContextSpan:
        span = self._spans[span_id]
        cleaned = _collapse_ws(span.content)
        if cleaned == span.content:
            return span
        span.content = cleaned
        span.content_hash = content_digest(cleaned)
        span.produced_by = "rewrite:normalize"
        self.sync(span)
        return span

    def rewrite(self, span_id: str, new_content: str, op: str) -> ContextSpan:
        span = self._spans[span_id]
        span.content = new_content
        span.version += 1
        span.content_hash = content_digest(new_content)
        span.produced_by = f"rewrite:{op}"
        span.token_offsets = None
        self.sync(span)
        return span

    def tombstone(self, span_id: str) -> None:
        span = self._spans[span_id]
        span.tombstoned_at = time.time()
        self.sync(span)

    def drop(self, span_id: str) -> Optional[ContextSpan]:
        span = self._spans.pop(span_id, None)
        if span is not None:
            self.docstore.delete_document(span_id, raise_error=False)
        return span


class SpanTokenBudget:
    """Token accounting for the prompt assembler."""

    def __init__(self, count_tokens: Callable[[str], int], limit: int = 12_000) -> None:
        self._count_tokens = count_tokens
        self.limit = limit
        self._counts: dict[tuple[str, int, str], int] = {}

    def tokens(self, span: ContextSpan) -> int:
        key = (span.span_id, span.version, span.content_hash)
        n = self._counts.get(key)
        if n is None:
            n = self._count_tokens(span.content)
            self._counts[key] = n
        return n

    def total(self, spans: Iterable[ContextSpan]) -> int:
        return sum(self.tokens(s) for s in spans)

    def over_budget(self, buffer: ContextBuffer) -> bool:
        return self.total(buffer.live()) > self.limit
