# rules: SPL101, SPL102, SPL103, SPL104
"""Held-out: spans that store a content hash; rewrites must recompute it (SPL102)."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from dataclasses import dataclass

log = logging.getLogger(__name__)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class HashedSpan:
    span_id: str
    content: str
    content_hash: str
    version: int = 0


@dataclass
class Chunk:
    chunk_id: str
    text: str
    checksum: str


@dataclass
class TokenSpan:
    span_id: str
    tokens: list[int]
    etag: str
    revision: int = 0


@dataclass
class AddressedBlock:
    block_id: str
    content: str

    @property
    def digest(self) -> str:
        return _digest(self.content)


@dataclass
class VersionedAddressed:
    id: str
    content: str
    version: int = 0

    @property
    def content_hash(self) -> str:
        return _digest(self.content)


@dataclass
class Entry:
    id: str
    body: str
    hash: str
    generation: int = 0

    def amend(self, extra: str) -> None:
        self.body += extra  # expect: SPL101, SPL102

    def amend_properly(self, extra: str) -> None:
        self.body += extra
        self.generation += 1
        self.hash = _digest(self.body)

    def amend_bump_only(self, extra: str) -> None:
        self.body += extra  # expect: SPL102
        self.generation += 1


def redact_hashed(span: HashedSpan, secret: str) -> None:
    span.content = span.content.replace(secret, "")  # expect: SPL101, SPL102


def redact_hashed_bump_only(span: HashedSpan, secret: str) -> None:
    span.content = span.content.replace(secret, "")  # expect: SPL102
    span.version += 1


def redact_hashed_rehash_only(span: HashedSpan, secret: str) -> None:
    span.content = span.content.replace(secret, "")  # expect: SPL101
    span.content_hash = _digest(span.content)


def redact_hashed_full(span: HashedSpan, secret: str) -> None:
    span.content = span.content.replace(secret, "")
    span.version += 1
    span.content_hash = _digest(span.content)


def redact_hashed_rehash_method(span: HashedSpan, secret: str) -> None:
    span.content = span.content.replace(secret, "")
    span.version += 1
    span.rehash()


def redact_hashed_recompute(span: HashedSpan, secret: str) -> None:
    span.content = span.content.replace(secret, "")
    span.bump_version()
    span.recompute_hash()


def _refresh_hash(s: HashedSpan) -> None:
    s.content_hash = _digest(s.content)


def rewrite_refresh_helper(span: HashedSpan, text: str) -> None:
    span.content = text
    span.version += 1
    _refresh_hash(span)


def rewrite_cond_rehash(span: HashedSpan, text: str, strict: bool) -> None:
    span.content = text  # expect: SPL102
    span.version += 1
    if strict:
        span.content_hash = _digest(text)


def rewrite_early_exit(span: HashedSpan, text: str) -> None:
    span.version += 1
    span.content = text  # expect: SPL102
    if span.content_hash == "":
        return
    span.rehash()


def rewrite_in_try(span: HashedSpan, text: str) -> None:
    try:
        span.content = text
        span.version += 1
    finally:
        span.content_hash = _digest(span.content)


def clean_chunk(chunk: Chunk) -> None:
    chunk.text = " ".join(chunk.text.split())  # expect: SPL102


def clean_chunk_rehashed(chunk: Chunk) -> None:
    chunk.text = " ".join(chunk.text.split())
    chunk.checksum = _digest(chunk.text)


def clean_chunks(chunks: list[Chunk]) -> None:
    for chunk in chunks:
        chunk.text = chunk.text.lower()  # expect: SPL102


def clean_chunks_rehashed(chunks: list[Chunk]) -> None:
    for chunk in chunks:
        chunk.text = chunk.text.lower()
        chunk.update_hash()


def setattr_chunk(chunk: Chunk, text: str) -> None:
    setattr(chunk, "text", text)  # expect: SPL102


def append_tokens(span: TokenSpan, more: list[int]) -> None:
    span.tokens.extend(more)  # expect: SPL101, SPL102


def insert_token(span: TokenSpan, i: int, tok: int) -> None:
    span.tokens.insert(i, tok)  # expect: SPL102
    span.revision += 1


def sort_tokens(span: TokenSpan) -> None:
    span.tokens.sort()
    span.revision += 1
    span.update_hash()


def reverse_tokens(span: TokenSpan) -> None:
    span.tokens.reverse()
    span.revision += 1
    span.etag = _digest(str(span.tokens))


def rewrite_addressed(block: AddressedBlock, text: str) -> None:
    block.content = text


def rewrite_versioned_addressed(span: VersionedAddressed, text: str) -> None:
    span.content = text  # expect: SPL101


def rewrite_versioned_addressed_ok(span: VersionedAddressed, text: str) -> None:
    span.content = text
    span.version += 1


def rewrite_checked(span, text: str) -> None:
    old = span.content_hash
    span.content = text  # expect: SPL101, SPL102
    log.info("rewrote %s (was %s)", span.span_id, old)


def rewrite_checked_and_rehashed(span, text: str) -> None:
    old = span.content_hash
    span.content = text
    span.version += 1
    span.content_hash = _digest(text)
    log.info("rewrote %s (was %s)", span.span_id, old)


def copy_back_hashed(buffer: dict[str, HashedSpan], sid: str, text: str) -> None:
    s = buffer[sid]
    buffer[s.span_id] = dataclasses.replace(s, content=text)  # expect: SPL101, SPL102


def copy_back_hashed_full(buffer: dict[str, HashedSpan], sid: str, text: str) -> None:
    s = buffer[sid]
    buffer[s.span_id] = dataclasses.replace(s, content=text, version=s.version + 1, content_hash=_digest(text))


def new_hashed(sid: str, text: str) -> HashedSpan:
    span = HashedSpan(span_id=sid, content="", content_hash="")
    span.content = text
    span.content_hash = _digest(text)
    return span


def tombstone_hashed(span: HashedSpan) -> None:
    span.content = "[pruned]"


async def summarize_chunks(chunks: list[Chunk], llm) -> None:
    for chunk in chunks:
        chunk.text = await llm.summarize(chunk.text)  # expect: SPL102


async def summarize_chunks_rehashed(chunks: list[Chunk], llm) -> None:
    for chunk in chunks:
        chunk.text = await llm.summarize(chunk.text)
        chunk.checksum = _digest(chunk.text)


def file_digest(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(65536), b""):
            h.update(block)
    return h.hexdigest()
