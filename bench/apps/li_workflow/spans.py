"""Span model shared by the buffer, the ingestion pipeline and the workflow."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import Any, Optional

from llama_index.core.schema import BaseNode, NodeRelationship, RelatedNodeInfo, TextNode

SPAN_VERSION = "span_version"
CONTENT_SHA = "content_sha"
PRODUCED_BY = "produced_by"
TOMBSTONED_AT = "tombstoned_at"
SPAN_ROLE = "span_role"

BOOKKEEPING_KEYS = [SPAN_VERSION, CONTENT_SHA, PRODUCED_BY, TOMBSTONED_AT, SPAN_ROLE]


class StaleArtifactError(RuntimeError):
    """A derived artifact no longer matches the span it was built from."""


def content_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class ContextSpan:
    span_id: str
    content: str
    role: str = "context"
    produced_by: str = "ingest"
    version: int = 0
    content_hash: str = ""
    token_offsets: Optional[list[tuple[int, int]]] = None
    source_ids: list[str] = field(default_factory=list)
    created_at: float = field(default_factory=time.time)
    tombstoned_at: Optional[float] = None

    def __post_init__(self) -> None:
        if not self.content_hash:
            self.content_hash = content_digest(self.content)

    @property
    def is_tombstoned(self) -> bool:
        return self.tombstoned_at is not None

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.span_id, self.version, self.content_hash)

    def to_node(self) -> TextNode:
        metadata: dict[str, Any] = {
            SPAN_VERSION: self.version,
            CONTENT_SHA: self.content_hash,
            PRODUCED_BY: self.produced_by,
            SPAN_ROLE: self.role,
        }
        if self.tombstoned_at is not None:
            metadata[TOMBSTONED_AT] = self.tombstoned_at
        node = TextNode(
            id_=self.span_id,
            text=self.content,
            metadata=metadata,
            excluded_embed_metadata_keys=list(BOOKKEEPING_KEYS),
            excluded_llm_metadata_keys=list(BOOKKEEPING_KEYS),
        )
        if self.source_ids:
            node.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(
                node_id=self.source_ids[0]
            )
        return node

    @classmethod
    def from_node(cls, node: BaseNode) -> "ContextSpan":
        meta = node.metadata
        sources: list[str] = []
        if node.source_node is not None:
            sources.append(node.source_node.node_id)
        return cls(
            span_id=node.node_id,
            content=node.get_content(),
            role=meta.get(SPAN_ROLE, "context"),
            produced_by=meta.get(PRODUCED_BY, "ingest"),
            version=int(meta.get(SPAN_VERSION, 0)),
            content_hash=meta.get(CONTENT_SHA) or content_digest(node.get_content()),
            source_ids=sources,
            tombstoned_at=meta.get(TOMBSTONED_AT),
        )
