"""Citations shown under each answer: file, page and the quoted sentence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional

from llama_index.core.schema import NodeWithScore, TextNode


@dataclass
class Citation:
    node_id: str
    start: int
    end: int
    file_name: str
    page: Optional[str] = None


@dataclass
class PinnedCitation:
    node_id: str
    node_hash: str
    start: int
    end: int
    file_name: str


def cite(nws: NodeWithScore, start: int, end: int) -> Citation:
    node = nws.node
    return Citation(
        node_id=node.node_id,
        start=start,
        end=end,
        file_name=node.metadata.get("file_name", "unknown"),
        page=node.metadata.get("page_label"),
    )


def pin(nws: NodeWithScore, start: int, end: int) -> PinnedCitation:
    n = nws.node
    return PinnedCitation(n.node_id, n.hash, start, end, n.metadata.get("file_name", "unknown"))


class CitationRenderer:
    def __init__(self, nodes_by_id: Dict[str, TextNode]) -> None:
        self.nodes_by_id = nodes_by_id

    def render(self, citations: List[Citation]) -> str:
        lines = []
        for i, c in enumerate(citations, 1):
            node = self.nodes_by_id.get(c.node_id)
            if node is None:
                lines.append(f"[{i}] {c.file_name} (source removed)")
                continue
            quote = node.text[c.start : c.end]
            lines.append(f"[{i}] {c.file_name}: \u201c{quote}\u201d")
        return "\n".join(lines)

    def render_pinned(self, c: PinnedCitation) -> Optional[str]:
        node = self.nodes_by_id.get(c.node_id)
        if node is None or node.hash != c.node_hash:
            return None
        return node.text[c.start : c.end]
