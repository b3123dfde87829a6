# rules: SPL101, SPL102, SPL103, SPL104
"""Held-out: LlamaIndex-style postprocessors and LangChain-style message trimming (library classes)."""

from __future__ import annotations

from typing import List, Optional

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle, TextNode


class SentenceTrimPostprocessor(BaseNodePostprocessor):
    max_sentences: int = 3

    def _postprocess_nodes(
        self, nodes: List[NodeWithScore], query_bundle: Optional[QueryBundle] = None
    ) -> List[NodeWithScore]:
        for n in nodes:
            sentences = n.node.get_content().split(". ")
            n.node.set_content(". ".join(sentences[: self.max_sentences]))  # expect: SPL101
        return nodes


class KeywordHighlighter(BaseNodePostprocessor):
    def _postprocess_nodes(self, nodes, query_bundle=None):
        for node_with_score in nodes:
            node = node_with_score.node
            node.text = node.text.replace("TODO", "")  # expect: SPL101
        return nodes


class MetadataReplacement(BaseNodePostprocessor):
    target_metadata_key: str

    def _postprocess_nodes(self, nodes, query_bundle=None):
        for n in nodes:
            n.node.set_content(n.node.metadata.get(self.target_metadata_key, n.node.get_content()))  # expect: SPL101
        return nodes


class ScoreFilter(BaseNodePostprocessor):
    cutoff: float = 0.5

    def _postprocess_nodes(self, nodes, query_bundle=None):
        return [n for n in nodes if (n.score or 0.0) >= self.cutoff]


class CopyingTrimmer(BaseNodePostprocessor):
    def _postprocess_nodes(self, nodes, query_bundle=None):
        out = []
        for n in nodes:
            text = n.node.get_content(metadata_mode=MetadataMode.NONE)[:500]
            out.append(NodeWithScore(node=TextNode(text=text, metadata=n.node.metadata), score=n.score))
        return out


def trim_ai_messages(messages: list[BaseMessage], limit: int) -> list[BaseMessage]:
    for message in messages:
        if isinstance(message, AIMessage) and len(message.content) > limit:
            message.content = message.content[:limit]  # expect: SPL101
    return messages


def strip_human_messages(messages: list[BaseMessage]) -> list[BaseMessage]:
    return [HumanMessage(content=m.content.strip(), id=m.id) if isinstance(m, HumanMessage) else m for m in messages]


def mark_versioned(message, text: str) -> None:
    message.content = text
    message.version += 1


def scrub_node(node: TextNode) -> None:
    node.set_text(node.text.replace("secret", ""))  # expect: SPL101


def scrub_node_bumped(node: TextNode) -> None:
    node.set_text(node.text.replace("secret", ""))
    node.mark_modified()


def render_nodes(nodes: List[NodeWithScore]) -> str:
    return "\n\n".join(n.node.get_content() for n in nodes)


def tombstone_node(node: TextNode) -> None:
    node.set_content("[pruned]")
