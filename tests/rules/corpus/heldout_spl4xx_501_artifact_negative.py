# rules: SPL501
"""Held-out: stored offsets used only after a version/hash check, and offset slicing that is not artifact use."""
from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import NamedTuple


class StaleArtifact(Exception):
    pass


@dataclass
class Span:
    id: str
    content: str
    version: int = 0
    revision: int = 0
    generation: int = 0
    content_hash: str = ""
    etag: str = ""
    start: int = 0
    end: int = 0


class Citation(NamedTuple):
    span_id: str
    start: int
    end: int
    version: int
    content_hash: str


@dataclass
class OffsetArtifact:
    span_id: str
    offsets: tuple[int, int]
    version: int
    digest: str
    revision: int = 0
    generation: int = 0
    etag: str = ""
    checksum: str = ""
    text: str = ""
    start: int = 0
    end: int = 0

    def matches(self, span: Span) -> bool:
        return self.version == span.version and self.digest == span.content_hash


def check_artifact(artifact, span: Span) -> None:
    if artifact.version != span.version:
        raise StaleArtifact(span.id)


def _is_fresh(art: OffsetArtifact, span: Span) -> bool:
    return art.digest == span.content_hash


def quote_version_checked(span: Span, a: Citation) -> str:
    if a.version != span.version:
        raise StaleArtifact(span.id)
    return span.content[a.start:a.end]


def quote_hash_checked(span: Span, a: Citation) -> str | None:
    if a.content_hash != span.content_hash:
        return None
    return span.content[a.start:a.end]


def quote_with_helper(span: Span, art: OffsetArtifact) -> str:
    check_artifact(art, span)
    start, end = art.offsets
    return span.content[start:end]


def quote_with_local_helper(span: Span, art: OffsetArtifact) -> str:
    if not _is_fresh(art, span):
        raise StaleArtifact(span.id)
    return span.content[art.offsets[0]:art.offsets[1]]


def quote_with_method(span: Span, art: OffsetArtifact) -> str:
    if not art.matches(span):
        raise StaleArtifact(span.id)
    return span.text[art.offsets[0]:art.offsets[1]]


def quote_etag(span: Span, art: OffsetArtifact) -> str:
    if art.etag == span.etag:
        return span.content[art.start:art.end]
    return ""


def quote_asserted(span: Span, art: OffsetArtifact) -> str:
    assert art.revision == span.revision, "stale offsets"
    return span.content[art.start:art.end]


def quote_tuple_key(spans: dict[str, Span], cites: list[Citation]) -> list[str]:
    out = []
    for c in cites:
        span = spans[c.span_id]
        if (c.span_id, c.version) != (span.id, span.version):
            continue
        out.append(span.content[c.start:c.end])
    return out


def quote_rehashed(span: Span, art: OffsetArtifact) -> str:
    if art.checksum != hashlib.sha256(span.content.encode()).hexdigest():
        raise StaleArtifact(span.id)
    return span.content[art.start:art.end]


def quote_generation(span: Span, art: OffsetArtifact, rebuild) -> str:
    if art.generation != span.generation:
        art = rebuild(span)
    return span.content[art.start:art.end]


def quote_in_comprehension(spans: dict[str, Span], cites: list[Citation]) -> list[str]:
    return [
        spans[c.span_id].content[c.start:c.end]
        for c in cites
        if c.version == spans[c.span_id].version
    ]


class Renderer:
    def __init__(self, spans: dict[str, Span]) -> None:
        self.spans = spans

    def _fresh(self, c: Citation, span: Span) -> bool:
        return c.content_hash == span.content_hash

    def render(self, c: Citation) -> str:
        span = self.spans[c.span_id]
        if not self._fresh(c, span):
            return "[stale citation]"
        return span.content[c.start:c.end]


def regex_highlight(span: Span, pattern: re.Pattern[str]) -> str | None:
    m = pattern.search(span.content)
    if m is None:
        return None
    return span.content[m.start():m.end()]


def preview(span: Span) -> str:
    return span.content[:200]


def strip_prefix(span: Span, prefix: str) -> str:
    return span.content[len(prefix):]


def find_quote(span: Span, quote: str) -> str:
    start = span.content.find(quote)
    return span.content[start:start + len(quote)]


def own_offsets(span: Span) -> str:
    return span.content[span.start:span.end]


def artifact_own_text(art: OffsetArtifact) -> str:
    return art.text[art.start:art.end]


def xml_snippet(element: ET.Element, pattern: re.Pattern[str]) -> str:
    m = pattern.search(element.text or "")
    return (element.text or "")[m.start():m.end()] if m else ""


def parse_record(raw: bytes, header) -> bytes:
    return raw[header.offset:header.offset + header.size]


def log_line_field(line: str, rec) -> str:
    return line[rec.start:rec.end]


def render_annotations(message) -> list[str]:
    """OpenAI-style annotations arrive with the text they index: there is nothing stored to go stale."""
    text = message.content[0].text.value
    annotations = message.content[0].text.annotations
    return [text[a.start_index:a.end_index] for a in annotations]


def word_tokens(span: Span) -> list[str]:
    words = span.content.split()
    return words[1:3]


def fresh_offsets(span: Span, tokenizer) -> list[str]:
    offsets = tokenizer(span.content).offset_mapping
    return [span.content[s:e] for s, e in offsets]


def generation_guard(spans: dict[str, Span], art: OffsetArtifact) -> str:
    span = spans[art.span_id]
    if span.generation == art.generation:
        lo, hi = art.offsets
        return span.content[lo:hi]
    raise StaleArtifact(art.span_id)


@dataclass
class Passage:
    id: str
    content: str
    version: int
    start: int = 0
    end: int = 0

    def window(self, other: Span) -> str:
        return self.content[self.start:self.end]


class Lexer:
    def __init__(self, source: str) -> None:
        self.pos = 0
        self.end = len(source)

    def rest(self, message) -> str:
        return message.text[self.pos:self.end]
