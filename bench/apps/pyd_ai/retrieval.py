"""Chunk-level retrieval over knowledge-base spans and snippet assembly."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic_ai import Agent

from .spans import ContextStore, digest
from .tokens import OffsetMap, build_offset_map, tokenize

compressor = Agent(
    "openai:gpt-4o-mini",
    instructions=(
        "Rewrite the passage as tersely as possible. Keep product names, error codes, "
        "version numbers and every step of any procedure."
    ),
    name="chunk-compressor",
)


@dataclass
class Chunk:
    chunk_id: str
    span_id: str
    text: str
    version: int = 0
    content_hash: str = ""
    embedding: list[float] | None = None
    token_offsets: list[tuple[int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = digest(self.text)
        if not self.token_offsets:
            self.token_offsets = tokenize(self.text)


async def compress_chunk(chunk: Chunk) -> Chunk:
    result = await compressor.run(chunk.text)
    short = result.output.strip()
    if len(short) >= len(chunk.text):
        return chunk
    chunk.text = short
    chunk.version += 1
    chunk.content_hash = digest(short)
    return chunk


async def compress_chunk_for_prompt(chunk: Chunk) -> Chunk:
    result = await compressor.run(chunk.text)
    short = result.output.strip()
    if len(short) >= len(chunk.text):
        return chunk
    chunk.text = short
    chunk.version += 1
    chunk.content_hash = digest(short)
    chunk.embedding = None
    chunk.token_offsets = tokenize(short)
    return chunk


class SnippetBuilder:
    """Turns token-range hits from the lexical retriever into quoted snippets."""

    def __init__(self, store: ContextStore) -> None:
        self.store = store
        self._maps: dict[str, OffsetMap] = {}

    def offsets_for(self, span_id: str) -> OffsetMap:
        m = self._maps.get(span_id)
        if m is None:
            m = self._maps[span_id] = build_offset_map(self.store.get(span_id))
        return m

    async def snippet(self, span_id: str, first_tok: int, last_tok: int, pad: int = 8) -> str:
        m = self.offsets_for(span_id)
        body = self.store.get(span_id).content
        lo = max(0, first_tok - pad)
        hi = min(len(m.offsets) - 1, last_tok + pad)
        start, end = m.offsets[lo][0], m.offsets[hi][1]
        return body[start:end]
