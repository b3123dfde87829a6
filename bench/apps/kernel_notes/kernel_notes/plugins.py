"""The notes plugin exposed to the model through the kernel."""

from __future__ import annotations

from typing import Annotated
from uuid import uuid4

from semantic_kernel.connectors.in_memory import InMemoryCollection
from semantic_kernel.functions import kernel_function

from kernel_notes.buffer import NoteBuffer
from kernel_notes.decision_log import DecisionLog
from kernel_notes.embeddings import EmbeddingCache
from kernel_notes.records import NoteChunk, PinnedFact
from kernel_notes.spans import NoteSpan, sha

Chunks = InMemoryCollection[str, NoteChunk]


class NotesPlugin:
    def __init__(self, buffer: NoteBuffer, chunks: Chunks, embedder: EmbeddingCache, log: DecisionLog) -> None:
        self.buffer = buffer
        self.chunks = chunks
        self.embedder = embedder
        self.log = log

    async def index(self, span: NoteSpan) -> NoteChunk:
        vector = await self.embedder.embed(span)
        chunk = NoteChunk(span.text, span.span_id, span.version, span.sha, vector, key=f"{span.span_id}@{span.version}")
        await self.chunks.upsert(chunk)
        return chunk

    @kernel_function(name="search_notes", description="Find notes relevant to a question.")
    async def search_notes(self, query: Annotated[str, "What to look for."], top: int = 5) -> str:
        vector = await self.embedder.embed_text(query)
        results = await self.chunks.search(vector=vector, top=top)
        lines: list[str] = []
        async for hit in results.results:
            chunk = hit.record
            span = self.buffer.get(chunk.span_id)
            if span is not None and span.version == chunk.span_version and span.sha == chunk.span_sha:
                lines.append(f"[{span.span_id}] {chunk.text}")
        return "\n".join(lines) or "no matching notes"

    @kernel_function(name="polish_chunk", description="Fix grammar in an indexed note excerpt.")
    async def polish_chunk(self, key: Annotated[str, "Chunk key."], text: Annotated[str, "Polished text."]) -> str:
        chunk = await self.chunks.get(key, include_vectors=True)
        if chunk is None:
            return f"no chunk {key}"
        chunk.text = text
        chunk.span_version += 1
        chunk.span_sha = sha(text)
        await self.chunks.upsert(chunk)
        return chunk.key

    @kernel_function(name="tidy_note", description="Rewrite a note for clarity and re-index it.")
    async def tidy_note(self, span_id: Annotated[str, "Note id."], text: Annotated[str, "Rewritten note."]) -> str:
        old_key = f"{span_id}@{self.buffer.require(span_id).version}"
        span = self.buffer.rewrite(span_id, text, op="tidy")
        self.embedder.forget(span_id)
        await self.chunks.delete(old_key)
        chunk = await self.index(span)
        return chunk.key

    @kernel_function(name="shorten_note", description="Trim a long note to a character budget.")
    def shorten_note(self, span_id: Annotated[str, "Note id."], max_chars: int = 600) -> str:
        span = self.buffer.require(span_id)
        if len(span.text) <= max_chars:
            return span.span_id
        span.text = span.text[:max_chars].rsplit(" ", 1)[0] + " …"
        span.version += 1
        span.sha = sha(span.text)
        return span.span_id

    @kernel_function(name="forget_note", description="Remove a note the user no longer wants.")
    async def forget_note(self, span_id: Annotated[str, "Note id."], reason: Annotated[str, "Why."] = "") -> str:
        span = self.buffer.drop(span_id)
        if span is None:
            return f"no note {span_id}"
        await self.chunks.delete(f"{span_id}@{span.version}")
        self.log.record("forget", [span_id], reason or "user asked to forget")
        return span_id

    @kernel_function(name="draft_reply", description="Clean up a draft reply before it is sent.")
    def draft_reply(self, text: Annotated[str, "Draft text."]) -> str:
        text = text.replace("\r\n", "\n").strip()
        text = "\n".join(line.rstrip() for line in text.splitlines())
        return text[:4000]


class FactsPlugin:
    def __init__(self) -> None:
        self.facts: dict[str, PinnedFact] = {}

    def system_block(self) -> str:
        return "\n".join(f"- ({f.fact_id}) {f.statement}" for f in self.facts.values())

    @kernel_function(name="pin_fact", description="Pin a fact so it is included in every turn.")
    def pin_fact(self, statement: Annotated[str, "The fact to remember."]) -> str:
        fact = PinnedFact(fact_id=f"fact-{uuid4().hex[:8]}", statement=statement.strip())
        self.facts[fact.fact_id] = fact
        return fact.fact_id

    @kernel_function(name="correct_fact", description="Correct the wording of a pinned fact.")
    def correct_fact(self, fact_id: Annotated[str, "Pinned fact id."], statement: Annotated[str, "Corrected text."]) -> str:
        if (fact := self.facts.get(fact_id)) is None:
            return f"no pinned fact {fact_id}"
        fact.statement = statement.strip()
        return fact.fact_id
