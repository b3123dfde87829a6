"""Chunking of long spans for retrieval, plus passage cleanup for quoted web sources."""

from __future__ import annotations

import re
from typing import Iterable

from tessera.records import Chunk, Passage, Span, content_digest

_TOKEN = re.compile(r"\S+")
_SENT = re.compile(r"[^.!?]+[.!?]*\s*")
_BOILERPLATE = re.compile(
    r"^(?:cookie settings|accept all cookies|subscribe to our newsletter|share this article).*$",
    re.I | re.M,
)
_REF_MARK = re.compile(r"\[(?:\d+|citation needed)\]")


def token_offsets(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _TOKEN.finditer(text)]


def sentence_offsets(text: str) -> tuple[tuple[int, int], ...]:
    return tuple((m.start(), m.end()) for m in _SENT.finditer(text) if m.group().strip())


def split_into_chunks(span: Span, size: int = 1_600, overlap: int = 200) -> list[Chunk]:
    text = span.content
    chunks: list[Chunk] = []
    step = max(1, size - overlap)
    for i, start in enumerate(range(0, max(len(text), 1), step)):
        piece = text[start : start + size]
        if not piece.strip():
            continue
        chunks.append(
            Chunk(
                chunk_id=f"{span.span_id}#c{i}",
                span_id=span.span_id,
                text=piece,
                token_offsets=token_offsets(piece),
            )
        )
    return chunks


def clean_chunk(chunk: Chunk) -> Chunk:
    cleaned = _BOILERPLATE.sub("", chunk.text).strip()
    if cleaned != chunk.text:
        chunk.text = cleaned
        chunk.version += 1
        chunk.text_hash = content_digest(cleaned)
    return chunk


def retext_chunk(chunk: Chunk, text: str) -> Chunk:
    chunk.text = text
    chunk.version += 1
    chunk.text_hash = content_digest(text)
    chunk.embedding = None
    chunk.token_offsets = token_offsets(text)
    return chunk


def make_passage(passage_id: str, text: str, source_url: str | None = None) -> Passage:
    return Passage(
        passage_id=passage_id,
        text=text,
        version=0,
        text_hash=content_digest(text),
        sentence_offsets=sentence_offsets(text),
        source_url=source_url,
    )


def strip_ref_marks(p: Passage) -> Passage:
    stripped = _REF_MARK.sub("", p.text)
    if stripped == p.text:
        return p
    return p._replace(
        text=stripped,
        version=p.version + 1,
        text_hash=content_digest(stripped),
    )


def reflow_passage(p: Passage) -> Passage:
    flowed = " ".join(p.text.split())
    if flowed == p.text:
        return p
    return p._replace(
        text=flowed,
        version=p.version + 1,
        text_hash=content_digest(flowed),
        sentence_offsets=sentence_offsets(flowed),
    )


def clean_all(chunks: Iterable[Chunk]) -> list[Chunk]:
    return [clean_chunk(c) for c in chunks]
