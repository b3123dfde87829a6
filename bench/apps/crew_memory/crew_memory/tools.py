"""CrewAI tools that let agents read and edit the shared span store."""

import re
from typing import Any, TypedDict

from crewai.tools import BaseTool
from pydantic import BaseModel, Field

from crew_memory.decision_log import DecisionLog
from crew_memory.spans import Span, SpanStore

_PII = re.compile(r"\b(?:\d{3}-\d{2}-\d{4}|[\w.+-]+@[\w-]+\.[\w.]+)\b")
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


class OffsetEntry(TypedDict):
    span_id: str
    version: int
    content_hash: str
    sentences: list[tuple[int, int]]


class OffsetIndex:
    def __init__(self, store: SpanStore) -> None:
        self.store = store
        self.entries: dict[str, OffsetEntry] = {}

    def index(self, span: Span) -> OffsetEntry:
        bounds = [(m.start(), m.end()) for m in _SENTENCE.finditer(span.content) if m.group().strip()]
        entry = OffsetEntry(span_id=span.span_id, version=span.version,
                            content_hash=span.content_hash, sentences=bounds)
        self.entries[span.span_id] = entry
        self.store.hold(span.span_id, "offset-index")
        return entry

    def sentence(self, span_id: str, n: int) -> str:
        start, end = self.entries[span_id]["sentences"][n]
        return self.store.spans[span_id].content[start:end].strip()


class SpanArgs(BaseModel):
    span_id: str = Field(description="Id of the span")
    text: str = Field(default="", description="Replacement text, or the reason for removal")


class QuoteArgs(BaseModel):
    span_id: str
    sentence: int = Field(ge=0, description="Zero-based sentence number")


class _StoreTool(BaseTool):
    args_schema: type[BaseModel] = SpanArgs
    store: Any = Field(exclude=True)
    log: Any = Field(default=None, exclude=True)


class EditSpanTool(_StoreTool):
    name: str = "edit_span"
    description: str = "Replace the text of a context span with a corrected version."

    def _run(self, span_id: str, text: str = "", **kwargs: Any) -> str:
        span = self.store.spans.get(span_id)
        if span is None or not text.strip():
            return f"Nothing to edit for {span_id}; use forget_span to remove a span."
        span.content = text.strip()
        span.version += 1
        return f"Updated {span_id} to v{span.version}"


class RedactSpanTool(_StoreTool):
    name: str = "redact_span"
    description: str = "Mask e-mail addresses and SSNs in a span before it is shared."

    def _run(self, span_id: str, text: str = "", **kwargs: Any) -> str:
        target = self.store.spans.get(span_id)
        if target is None:
            return f"No span {span_id}"
        masked, hits = _PII.subn("[redacted]", target.content)
        if hits:
            target.content = masked
        return f"Masked {hits} value(s) in {span_id}"


class ForgetSpanTool(_StoreTool):
    name: str = "forget_span"
    description: str = "Remove a span that is no longer relevant to the task."

    def _run(self, span_id: str, text: str = "", **kwargs: Any) -> str:
        log: DecisionLog = self.log
        if self.store.drop(span_id) is None:
            return f"No span {span_id}"
        log.record("forget", [span_id], text or "agent judged irrelevant")
        return f"Forgot {span_id}"


class QuoteSentenceTool(BaseTool):
    name: str = "quote_sentence"
    description: str = "Return one sentence of a span verbatim, for citing."
    args_schema: type[BaseModel] = QuoteArgs
    index: Any = Field(exclude=True)

    def _run(self, span_id: str, sentence: int, **kwargs: Any) -> str:
        idx: OffsetIndex = self.index
        if span_id not in idx.entries:
            idx.index(idx.store.spans[span_id])
        return idx.sentence(span_id, sentence)
