# rules: SPL101, SPL102, SPL103, SPL104
"""LlamaIndex-style nodes: content setters and postprocessors that leave embeddings and offsets behind."""
from typing import Annotated, List, Optional

from pydantic import BaseModel, Field


class BaseComponent(BaseModel):
    pass


class BaseNode(BaseComponent):
    id_: str = Field(default="")
    embedding: Optional[List[float]] = None
    metadata: dict = Field(default_factory=dict)

    @property
    def hash(self) -> str:
        return str(hash(self.get_content()))

    def get_content(self) -> str:
        raise NotImplementedError

    def set_content(self, value: str) -> None:
        raise NotImplementedError


class TextNode(BaseNode):
    text: str = ""
    start_char_idx: Optional[int] = None
    end_char_idx: Optional[int] = None

    def get_content(self) -> str:
        return self.text

    def set_content(self, value: str) -> None:
        self.text = value  # expect: SPL104

    def reset_content(self, value: str) -> None:
        self.text = value
        self.embedding = None
        self.start_char_idx = self.end_char_idx = None


class NodeWithScore(BaseComponent):
    node: Annotated[BaseNode, "serialize as any"]
    score: Optional[float] = None


class MetadataReplacementPostProcessor(BaseComponent):
    target_metadata_key: str

    def _postprocess_nodes(self, nodes: List[NodeWithScore], query=None) -> List[NodeWithScore]:
        for n in nodes:
            replacement = n.node.metadata.get(self.target_metadata_key)
            if replacement is not None:
                n.node.set_content(replacement)  # expect: SPL104
        return nodes


class SentenceOptimizer(BaseComponent):
    def _postprocess_nodes(self, nodes: List[NodeWithScore], query=None) -> List[NodeWithScore]:
        for node_idx in range(len(nodes)):
            text = nodes[node_idx].node.get_content()
            nodes[node_idx].node.set_content(text[:200])  # expect: SPL104
        return nodes


class ClearingPostProcessor(BaseComponent):
    def _postprocess_nodes(self, nodes: List[NodeWithScore], query=None) -> List[NodeWithScore]:
        for n in nodes:
            n.node.set_content(n.node.get_content().strip())
            n.node.embedding = None
        return nodes


def truncate(node: TextNode, limit: int) -> None:
    node.text = node.text[:limit]  # expect: SPL104


async def atranslate(node: TextNode, llm) -> TextNode:
    node.text = await llm.atranslate(node.text)  # expect: SPL104
    return node


def from_json(data: str, text: Optional[str]) -> BaseNode:
    node = TextNode.from_json(data)
    if text is not None:
        node.set_content(text)
    return node


def new_node(text: str) -> TextNode:
    node = TextNode()
    node.text = text
    return node


def collect(texts: List[str]) -> List[TextNode]:
    converted_nodes = []
    for text in texts:
        converted_nodes.append(TextNode())
        converted_nodes[-1].set_content(text)
    return converted_nodes


def prune(node: TextNode) -> None:
    node.text = "<tombstone>"
