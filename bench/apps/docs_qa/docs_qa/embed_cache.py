"""Caches embeddings so re-ingesting the handbook does not re-embed unchanged chunks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List

from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.schema import BaseNode, MetadataMode


class EmbeddingCache:
    def __init__(self, model: BaseEmbedding, path: Path) -> None:
        self.model = model
        self.path = path
        self._vectors: Dict[str, List[float]] = {}
        if path.exists():
            self._vectors = json.loads(path.read_text())

    def embed_nodes(self, nodes: List[BaseNode]) -> None:
        for node in nodes:
            cached = self._vectors.get(node.node_id)
            if cached is not None:
                node.embedding = cached
                continue
            vec = self.model.get_text_embedding(node.get_content(metadata_mode=MetadataMode.EMBED))
            self._vectors[node.node_id] = vec
            node.embedding = vec

    def save(self) -> None:
        self.path.write_text(json.dumps(self._vectors))


class HashedEmbeddingCache:
    """Same cache, keyed on the node's content hash too."""

    def __init__(self, model: BaseEmbedding) -> None:
        self.model = model
        self._vectors: Dict[tuple, List[float]] = {}

    def embed(self, node: BaseNode) -> List[float]:
        key = (node.node_id, node.hash)
        if key not in self._vectors:
            self._vectors[key] = self.model.get_text_embedding(node.get_content(metadata_mode=MetadataMode.EMBED))
        node.embedding = self._vectors[key]
        return node.embedding


class QueryEmbeddingCache:
    """Embeddings of user questions (strings, not nodes)."""

    def __init__(self, model: BaseEmbedding) -> None:
        self.model = model
        self._by_question: Dict[str, List[float]] = {}

    def get(self, question: str) -> List[float]:
        if question not in self._by_question:
            self._by_question[question] = self.model.get_query_embedding(question)
        return self._by_question[question]
