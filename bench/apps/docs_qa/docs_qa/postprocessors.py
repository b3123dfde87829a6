"""Node postprocessors run between retrieval and synthesis."""

from __future__ import annotations

import re
from typing import List, Optional

from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import MetadataMode, NodeRelationship, NodeWithScore, QueryBundle, TextNode

SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
PHONE = re.compile(r"\+?\d[\d\s().-]{7,}\d")


class SSNRedactor(BaseNodePostprocessor):
    """Masks social security numbers before the LLM sees them."""

    def _postprocess_nodes(
        self, nodes: List[NodeWithScore], query_bundle: Optional[QueryBundle] = None
    ) -> List[NodeWithScore]:
        for nws in nodes:
            nws.node.text = SSN.sub("***-**-****", nws.node.text)
        return nodes


class PhoneRedactor(BaseNodePostprocessor):
    """Masks phone numbers; the masked text goes into a new node so the stored one is untouched."""

    def _postprocess_nodes(self, nodes, query_bundle=None):
        out = []
        for nws in nodes:
            src = nws.node
            masked = PHONE.sub("<phone>", src.get_content(metadata_mode=MetadataMode.NONE))
            copy = TextNode(
                text=masked,
                metadata=dict(src.metadata),
                relationships={NodeRelationship.SOURCE: src.as_related_node_info()},
            )
            out.append(NodeWithScore(node=copy, score=nws.score))
        return out


class LeadSentenceCompressor(BaseNodePostprocessor):
    """Keeps the first few sentences of each chunk to save prompt tokens."""

    max_sentences: int = 3

    def _postprocess_nodes(self, nodes, query_bundle=None):
        for item in nodes:
            node = item.node
            sentences = re.split(r"(?<=[.!?])\s+", node.get_content())
            if len(sentences) <= self.max_sentences:
                continue
            node.set_content(" ".join(sentences[: self.max_sentences]))
        return nodes


class ScoreCutoff(BaseNodePostprocessor):
    cutoff: float = 0.35

    def _postprocess_nodes(self, nodes, query_bundle=None):
        return [n for n in nodes if (n.score or 0.0) >= self.cutoff]


class SectionTagger(BaseNodePostprocessor):
    def _postprocess_nodes(self, nodes, query_bundle=None):
        for n in nodes:
            n.node.metadata["section"] = n.node.metadata.get("file_name", "?").split("/")[0]
        return nodes


def truncate_for_prompt(nodes: List[NodeWithScore], limit: int = 1200) -> List[NodeWithScore]:
    for n in nodes:
        text = n.node.get_content()
        if len(text) > limit:
            n.node.text = text[:limit]
            n.node.embedding = None
            n.node.start_char_idx = None
            n.node.end_char_idx = None
    return nodes
