"""Citations from answers back into retrieved context."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, List, Optional

from llama_index.core.schema import MetadataMode, NodeWithScore
from llama_index.core.storage.docstore.types import BaseDocumentStore

from li_workflow.buffer import ContextBuffer
from li_workflow.spans import StaleArtifactError


@dataclass(frozen=True)
class Citation:
    node_id: str
    start: int
    end: int
    score: Optional[float] = None
    label: str = ""


def cite(results: Iterable[NodeWithScore], quote: str) -> Optional[Citation]:
    needle = quote.strip()
    if not needle:
        return None
    for i, nws in enumerate(results, start=1):
        text = nws.node.get_content(metadata_mode=MetadataMode.NONE)
        at = text.find(needle)
        if at >= 0:
            return Citation(
                node_id=nws.node.node_id,
                start=at,
                end=at + len(needle),
                score=nws.score,
                label=f"[{i}]",
            )
    return None


def quote(docstore: BaseDocumentStore, c: Citation) -> str:
    node = docstore.get_node(c.node_id)
    return node.get_content(metadata_mode=MetadataMode.NONE)[c.start : c.end]


def footnotes(docstore: BaseDocumentStore, cs: List[Citation]) -> str:
    return "\n".join(f"{c.label} \u201c{quote(docstore, c)}\u201d" for c in cs)


@dataclass(frozen=True)
class AnchoredCitation:
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int


def anchor(buffer: ContextBuffer, span_id: str, start: int, end: int) -> AnchoredCitation:
    span = buffer.get(span_id)
    return AnchoredCitation(span.span_id, span.version, span.content_hash, start, end)


def resolve_anchored(buffer: ContextBuffer, c: AnchoredCitation) -> str:
    span = buffer.find(c.span_id)
    if span is None:
        raise StaleArtifactError(f"span {c.span_id} is gone")
    if span.version != c.version or span.content_hash != c.content_hash:
        raise StaleArtifactError(
            f"citation built on {c.span_id} v{c.version}, span is now v{span.version}"
        )
    if c.end > len(span.content):
        raise StaleArtifactError(f"citation end {c.end} past span length {len(span.content)}")
    return span.content[c.start : c.end]
