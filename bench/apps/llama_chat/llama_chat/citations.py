"""Numbered citations for the assistant's answers."""

from typing import Iterable, List, Mapping, Tuple

from llama_index.core.schema import BaseNode, NodeWithScore

from .records import Citation


class StaleCitation(LookupError):
    pass


def _window(nws: NodeWithScore, max_len: int = 240) -> Tuple[int, int]:
    text = nws.node.get_content()
    return 0, min(len(text), max_len)


def cite_all(nodes: Iterable[NodeWithScore]) -> List[Citation]:
    out: List[Citation] = []
    for i, nws in enumerate(nodes, start=1):
        start, end = _window(nws)
        out.append(Citation(nws.node_id, nws.node.hash, start, end, label=f"[{i}]"))
    return out


def render_citation(cite: Citation, store: Mapping[str, BaseNode]) -> str:
    node = store.get(cite.node_id)
    if node is None:
        raise StaleCitation(cite.node_id)
    if node.hash != cite.node_hash:
        raise StaleCitation(f"{cite.node_id} changed since it was cited")
    text = node.get_content()
    return f"{cite.label} {text[cite.start:cite.end]}"

