# rules: SPL101, SPL102, SPL103, SPL104
"""Spans that store a content hash: the hash must be recomputed on every rewrite."""
import hashlib
from dataclasses import dataclass, replace
from functools import cached_property


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class HashedSpan:
    span_id: str
    content: str
    version: int
    content_hash: str

    def rehash(self) -> None:
        self.content_hash = digest(self.content)


@dataclass
class DigestOnlySpan:
    span_id: str
    text: str
    digest: str


@dataclass
class ComputedSpan:
    span_id: str
    content: str
    version: int

    @property
    def content_hash(self) -> str:
        return digest(self.content)


class CachedHashSpan:
    def __init__(self, span_id, content, version):
        self.span_id = span_id
        self.content = content
        self.version = version

    @cached_property
    def checksum(self):
        return digest(self.content)


def update_hash(span: HashedSpan) -> None:
    span.content_hash = digest(span.content)


def redact(span: HashedSpan, pattern) -> None:
    span.content = pattern.sub("[x]", span.content)  # expect: SPL102
    span.version += 1


def redact_rehashed(span: HashedSpan, pattern) -> None:
    span.content = pattern.sub("[x]", span.content)
    span.version += 1
    span.content_hash = digest(span.content)


def redact_rehash_method(span: HashedSpan, pattern) -> None:
    span.content = pattern.sub("[x]", span.content)
    span.version += 1
    span.rehash()


def redact_rehash_helper(span: HashedSpan, pattern) -> None:
    span.content = pattern.sub("[x]", span.content)
    span.version += 1
    update_hash(span)


def redact_rehash_sometimes(span: HashedSpan, pattern, strict) -> None:
    span.content = pattern.sub("[x]", span.content)  # expect: SPL102
    span.version += 1
    if strict:
        span.content_hash = digest(span.content)


def neither(span: HashedSpan, text) -> None:
    span.content = text  # expect: SPL101, SPL102


def digest_only(span: DigestOnlySpan, text) -> None:
    span.text = text  # expect: SPL102


def computed_is_fine(span: ComputedSpan, text) -> None:
    span.content = text
    span.version += 1


def cached_property_is_computed(span: CachedHashSpan, text) -> None:
    span.content = text
    span.version += 1


def store_copy(store, span: HashedSpan, text) -> None:
    store[span.span_id] = replace(span, content=text, version=span.version + 1)  # expect: SPL102


def store_copy_rehashed(store, span: HashedSpan, text) -> None:
    store[span.span_id] = replace(span, content=text, version=span.version + 1, content_hash=digest(text))


def unknown_class_reads_hash(chunk, text):
    old = chunk.content_hash
    chunk.content = text  # expect: SPL101, SPL102
    return old


async def async_compact(spans: list[HashedSpan], llm) -> None:
    for span in spans:
        span.content = await llm.compact(span.content)  # expect: SPL102
        span.version += 1


def sha_of_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()
