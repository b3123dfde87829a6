"""Highlights the retrieved chunk inside its source document for the side panel."""

from __future__ import annotations

from typing import Optional

from llama_index.core.schema import Document, NodeRelationship, TextNode


def highlight(doc: Document, node: TextNode) -> str:
    s, e = node.start_char_idx, node.end_char_idx
    if s is None or e is None:
        return doc.text[:200]
    return doc.text[:s] + "<mark>" + doc.text[s:e] + "</mark>" + doc.text[e:]


def highlight_checked(doc: Document, node: TextNode) -> Optional[str]:
    source = node.relationships.get(NodeRelationship.SOURCE)
    s, e = node.start_char_idx, node.end_char_idx
    if source is None or source.hash != doc.hash or s is None or e is None:
        return None
    return doc.text[:s] + "<mark>" + doc.text[s:e] + "</mark>" + doc.text[e:]


def snippet(text: str, start: int, width: int = 80) -> str:
    return text[max(0, start - width) : start + width]
