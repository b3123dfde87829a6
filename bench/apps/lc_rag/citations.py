"""Citations: character ranges inside indexed chunks that back an answer."""

from __future__ import annotations

from dataclasses import dataclass

from langchain_core.documents import Document

from .records import fingerprint


class StaleCitationError(LookupError):
    pass


@dataclass(frozen=True)
class Citation:
    chunk_id: str
    start: int
    end: int
    source: str
    source_offset: int = 0
    version: int | None = None
    content_hash: str | None = None

    @property
    def label(self) -> str:
        return f"{self.source}:{self.source_offset + self.start}"


def locate(doc: Document, quote: str) -> tuple[int, int] | None:
    pos = doc.page_content.find(quote)
    if pos < 0:
        return None
    return pos, pos + len(quote)


def cite(doc: Document, quote: str) -> Citation | None:
    span = locate(doc, quote)
    if span is None:
        return None
    return Citation(
        chunk_id=doc.id or "",
        start=span[0],
        end=span[1],
        source=doc.metadata.get("source", "?"),
        source_offset=int(doc.metadata.get("start_index", 0)),
    )


def cite_pinned(doc: Document, quote: str) -> Citation | None:
    span = locate(doc, quote)
    if span is None:
        return None
    doc_id, version, digest = fingerprint(doc)
    return Citation(
        chunk_id=doc_id,
        start=span[0],
        end=span[1],
        source=doc.metadata.get("source", "?"),
        source_offset=int(doc.metadata.get("start_index", 0)),
        version=version,
        content_hash=digest,
    )


def excerpt(citation: Citation, lookup) -> str:
    """Text shown in the answer footnote."""
    doc = lookup(citation.chunk_id)
    if doc is None:
        return ""
    return doc.page_content[citation.start : citation.end]


def resolve(citation: Citation, lookup) -> str:
    doc = lookup(citation.chunk_id)
    if doc is None:
        raise StaleCitationError(f"chunk {citation.chunk_id} is gone")
    _, version, digest = fingerprint(doc)
    if citation.version != version or citation.content_hash != digest:
        raise StaleCitationError(
            f"citation made against v{citation.version} of {citation.chunk_id}, chunk is now v{version}"
        )
    if citation.end > len(doc.page_content):
        raise StaleCitationError(f"citation range exceeds chunk {citation.chunk_id}")
    return doc.page_content[citation.start : citation.end]
