# rules: SPL101, SPL102, SPL103, SPL104
"""LlamaIndex-style chat messages hold content blocks without ids: editing a block is not a span rewrite."""
from typing import List

from llama_index.core.schema import NodeWithScore
from pydantic import BaseModel


class TextBlock(BaseModel):
    text: str


class ImageBlock(BaseModel):
    url: str


def add_state(message, state: str) -> None:
    for block in message.blocks[::-1]:
        if isinstance(block, TextBlock):
            block.text = f"{state}\n{block.text}"
            break


def shorten_retrieved(nodes: List[NodeWithScore], limit: int) -> List[NodeWithScore]:
    for n in nodes:
        n.node.text = n.node.text[:limit]  # expect: SPL101
    return nodes
