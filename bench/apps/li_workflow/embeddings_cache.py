"""Embedding caches in front of the embed model."""

from __future__ import annotations

import asyncio
from typing import Dict, List, Optional, Sequence, Tuple

from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.schema import BaseNode, MetadataMode

from li_workflow.spans import ContextSpan

Vector = List[float]


class NodeEmbeddingCache:
    """Avoid re-embedding retrieved nodes on every rerank pass."""

    def __init__(self, embed_model: BaseEmbedding) -> None:
        self.embed_model = embed_model
        self._vectors: Dict[str, Vector] = {}
        self._lock = asyncio.Lock()

    def get_or_embed(self, node: BaseNode) -> Vector:
        nid = node.node_id
        vec = self._vectors.get(nid)
        if vec is None:
            vec = self.embed_model.get_text_embedding(
                node.get_content(metadata_mode=MetadataMode.EMBED)
            )
            self._vectors[nid] = vec
        return vec

    async def aget_or_embed_many(self, nodes: Sequence[BaseNode]) -> List[Vector]:
        async with self._lock:
            missing = [n for n in nodes if n.node_id not in self._vectors]
            if missing:
                fresh = await self.embed_model.aget_text_embedding_batch(
                    [n.get_content(metadata_mode=MetadataMode.EMBED) for n in missing]
                )
                for n, v in zip(missing, fresh):
                    self._vectors[n.node_id] = v
        return [self._vectors[n.node_id] for n in nodes]

    def forget(self, node_id: str) -> None:
        self._vectors.pop(node_id, None)


class VersionedEmbeddingCache:
    """Span embeddings keyed on the full span identity."""

    def __init__(self, embed_model: BaseEmbedding, max_entries: int = 50_000) -> None:
        self.embed_model = embed_model
        self.max_entries = max_entries
        self._vectors: Dict[Tuple[str, int, str], Vector] = {}

    def lookup(self, span: ContextSpan) -> Optional[Vector]:
        return self._vectors.get((span.span_id, span.version, span.content_hash))

    async def aembed(self, span: ContextSpan) -> Vector:
        key = (span.span_id, span.version, span.content_hash)
        vec = self._vectors.get(key)
        if vec is None:
            vec = await self.embed_model.aget_text_embedding(span.content)
            if len(self._vectors) >= self.max_entries:
                self._vectors.pop(next(iter(self._vectors)))
            self._vectors[key] = vec
        return vec
