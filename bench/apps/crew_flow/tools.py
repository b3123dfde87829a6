"""Tools the research agents use to read and edit the shared context."""

from __future__ import annotations

from typing import Any

import httpx
from crewai.tools import BaseTool
from pydantic import BaseModel, Field, PrivateAttr

from crew_flow.citations import SentenceOffsets, index_sentences
from crew_flow.operators import needs_redaction, redact_text
from crew_flow.spans import ContextBuffer, ContextSpan


class SpanIdArgs(BaseModel):
    span_id: str = Field(..., description="Id of a span in the working context, e.g. sp_1a2b3c4d5e6f")


class EvidenceArgs(SpanIdArgs):
    sentence: int = Field(..., ge=0, description="Zero-based sentence index inside the span")


class FetchArgs(BaseModel):
    url: str = Field(..., description="Absolute http(s) URL to fetch")


class _BufferTool(BaseTool):
    _buffer: ContextBuffer = PrivateAttr()

    def __init__(self, buffer: ContextBuffer, **data: Any) -> None:
        super().__init__(**data)
        self._buffer = buffer


class RedactSpanTool(_BufferTool):
    name: str = "redact_span"
    description: str = (
        "Remove e-mail addresses, phone numbers and credentials from a context span. "
        "Returns the id of the redacted span, which replaces the old one."
    )
    args_schema: type[BaseModel] = SpanIdArgs

    def _run(self, span_id: str) -> str:
        span = self._buffer.get(span_id)
        if not needs_redaction(span.content):
            return f"{span_id}: nothing to redact"
        fresh = self._buffer.derive_rewrite(span_id, redact_text(span.content), op="redact")
        return f"{span_id} -> {fresh.id}"


class EvidenceTool(_BufferTool):
    name: str = "quote_evidence"
    description: str = (
        "Quote one sentence of a context span verbatim, for use as a citation. "
        "Sentences are numbered from 0 in reading order."
    )
    args_schema: type[BaseModel] = EvidenceArgs
    _index: dict[str, SentenceOffsets] = PrivateAttr(default_factory=dict)

    def index(self, spans: list[ContextSpan]) -> None:
        for span in spans:
            self._index.setdefault(span.id, index_sentences(span))

    def _run(self, span_id: str, sentence: int) -> str:
        offsets = self._index.get(span_id)
        if offsets is None:
            offsets = self._index[span_id] = index_sentences(self._buffer.get(span_id))
        if sentence >= len(offsets.bounds):
            return f"{span_id} has only {len(offsets.bounds)} sentences"
        start, end = offsets.bounds[sentence]
        text = self._buffer.get(offsets.span_id).content
        return text[start:end].strip()


class FetchUrlTool(BaseTool):
    name: str = "fetch_url"
    description: str = "Fetch a web page and return its text (truncated)."
    args_schema: type[BaseModel] = FetchArgs
    max_chars: int = 6_000
    timeout_s: float = 15.0

    def _run(self, url: str) -> str:
        resp = httpx.get(url, timeout=self.timeout_s, follow_redirects=True)
        resp.raise_for_status()
        body = resp.text
        if len(body) > self.max_chars:
            body = body[: self.max_chars] + f"\n[truncated {len(resp.text) - self.max_chars} chars]"
        return body

    async def _arun(self, url: str) -> str:
        async with httpx.AsyncClient(timeout=self.timeout_s, follow_redirects=True) as client:
            resp = await client.get(url)
        resp.raise_for_status()
        return resp.text[: self.max_chars]
