from types import MappingProxyType
from typing import Dict, Mapping, Tuple

from llama_index.core.schema import NodeWithScore


def highlight(hit: NodeWithScore, offsets: Dict[str, Tuple[int, int]]) -> str:
    start, end = offsets[hit.node.node_id]
    return hit.node.get_content()[start:end]


def highlight_checked(hit: NodeWithScore, offsets: Dict[Tuple[str, str], Tuple[int, int]]) -> str | None:
    key = (hit.node.node_id, hit.node.hash)
    if key not in offsets:
        return None
    start, end = offsets[key]
    return hit.node.get_content()[start:end]


def score_view(hits: list[NodeWithScore]) -> Mapping[str, float]:
    return MappingProxyType({h.node.node_id: h.score or 0.0 for h in hits})
