# rules: SPL501
"""Rendering citations: quoting span content at offsets stored with the citation."""
from dataclasses import dataclass


@dataclass
class Span:
    id: str
    content: str
    version: int
    content_hash: str


@dataclass
class Citation:
    span_id: str
    start: int
    end: int
    span_version: int
    content_hash: str


class StaleCitation(Exception):
    pass


def quote(span: Span, citation: Citation) -> str:
    return span.content[citation.start : citation.end]  # expect: SPL501


def quote_checked(span: Span, citation: Citation) -> str:
    if citation.span_version != span.version:
        raise StaleCitation(citation)
    return span.content[citation.start : citation.end]


def quote_hash_checked(span: Span, citation: Citation) -> str:
    assert citation.content_hash == span.content_hash, "stale citation"
    return span.content[citation.start : citation.end]


def render_all(spans: dict[str, Span], citations: list[Citation]) -> list[str]:
    out = []
    for cit in citations:
        span = spans[cit.span_id]
        out.append(f'"{span.content[cit.start:cit.end]}" [{cit.span_id}]')  # expect: SPL501
    return out


def render_all_checked(spans: dict[str, Span], citations: list[Citation]) -> list[str]:
    out = []
    for cit in citations:
        span = spans[cit.span_id]
        if (cit.span_id, cit.span_version, cit.content_hash) != (span.id, span.version, span.content_hash):
            continue
        out.append(span.content[cit.start : cit.end])
    return out


def with_context(span: Span, citation: Citation, pad: int = 20) -> str:
    lo = max(0, citation.start - pad)
    hi = citation.end + pad
    return span.content[lo:hi]  # expect: SPL501


def preview(span: Span, n: int = 80) -> str:
    return span.content[:n] + ("..." if len(span.content) > n else "")
