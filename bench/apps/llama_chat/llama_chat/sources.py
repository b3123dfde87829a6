"""Retrieved sources: embedding/rerank caches and cleanup before prompting."""

import re
from typing import Dict, List, Optional, Tuple

from llama_index.core import Settings
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.schema import MetadataMode, NodeRelationship, NodeWithScore, RelatedNodeInfo, TextNode

Vector = List[float]
_BOILERPLATE = re.compile(r"(?im)^\s*(copyright \d{4}.*|all rights reserved\.?|internal use only\.?)\s*$\n?")


def strip_boilerplate(nodes: List[NodeWithScore]) -> List[NodeWithScore]:
    for nws in nodes:
        node = nws.node
        if not isinstance(node, TextNode):
            continue
        cleaned = _BOILERPLATE.sub("", node.text)
        if cleaned != node.text:
            node.set_content(cleaned)
    return nodes


def scrubbed_copy(nws: NodeWithScore, pattern: re.Pattern, repl: str = "[redacted]") -> NodeWithScore:
    node = nws.node
    if not isinstance(node, TextNode):
        return nws
    cleaned = pattern.sub(repl, node.text)
    if cleaned == node.text:
        return nws
    origin = RelatedNodeInfo(node_id=node.node_id, hash=node.hash)
    fresh = TextNode(text=cleaned, metadata=dict(node.metadata), relationships={NodeRelationship.SOURCE: origin})
    return NodeWithScore(node=fresh, score=nws.score)


class NodeVectorCache:
    """Embeds retrieved chunks for the reranker; popular chunks come back every turn."""

    def __init__(self, embed_model: Optional[BaseEmbedding] = None) -> None:
        self._embed = embed_model or Settings.embed_model
        self._vectors: Dict[str, Vector] = {}

    async def vector_for(self, node: TextNode) -> Vector:
        cached = self._vectors.get(node.node_id)
        if cached is not None:
            return cached
        vec = await self._embed.aget_text_embedding(node.get_content(MetadataMode.EMBED))
        self._vectors[node.node_id] = vec
        return vec


class RerankScoreCache:
    def __init__(self) -> None:
        self._scores: Dict[Tuple[str, str, str], float] = {}

    def get(self, query: str, node: TextNode) -> Optional[float]:
        return self._scores.get((query, node.node_id, node.hash))

    def put(self, query: str, node: TextNode, score: float) -> None:
        self._scores[(query, node.node_id, node.hash)] = score
