from dataclasses import dataclass

from .models import Span


@dataclass
class Citation:
    span_id: str
    start: int
    end: int


@dataclass
class VersionedCitation:
    span_id: str
    version: int
    digest: str
    start: int
    end: int


def cite(span: Span, start: int, end: int) -> Citation:
    return Citation(span.span_id, start, end)


def render(span: Span, c: Citation) -> str:
    return f'"{span.content[c.start:c.end]}" [{c.span_id}]'


def render_checked(span: Span, c: VersionedCitation) -> str:
    if (span.version, span.digest) != (c.version, c.digest):
        raise LookupError(f"citation for {c.span_id} is stale")
    return f'"{span.content[c.start:c.end]}" [{c.span_id}]'
