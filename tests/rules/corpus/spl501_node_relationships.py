# rules: SPL501
"""LlamaIndex-style nodes: character offsets of one node applied to another node's text."""


class TextNode:
    def __init__(self, node_id: str, text: str, start_char_idx: int, end_char_idx: int) -> None:
        self.node_id = node_id
        self.text = text
        self.start_char_idx = start_char_idx
        self.end_char_idx = end_char_idx
        self.hash = str(hash(text))


def source_excerpt(source_node: TextNode, child_node: TextNode) -> str:
    return source_node.text[child_node.start_char_idx : child_node.end_char_idx]  # expect: SPL501


def source_excerpt_checked(source_node: TextNode, child_node: TextNode, parent_hash: str) -> str:
    if source_node.hash != parent_hash:
        return ""
    return source_node.text[child_node.start_char_idx : child_node.end_char_idx]


def own_text(node: TextNode) -> str:
    return node.text[node.start_char_idx : node.end_char_idx]


def clip(node: TextNode, limit: int) -> str:
    start = 0
    end = min(limit, len(node.text))
    return node.text[start:end]


class Reranker:
    def window(self, node: TextNode, hit) -> str:
        begin = hit.start - 50
        return node.text[begin : hit.end + 50]  # expect: SPL501
