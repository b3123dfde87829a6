import re
import uuid
import time

from llama_index.core.base.llms.types import ChatMessage, TextBlock
from llama_index.core.schema import TextNode

from .models import Span, Tombstone, content_hash
from .store import SpanStore

EMAIL = re.compile(r"[\w.]+@[\w.]+")


def redact_message(msg: ChatMessage) -> ChatMessage:
    text = EMAIL.sub("[email]", msg.content or "")
    msg.blocks = [TextBlock(text=text)]
    return msg


def normalize_span(span: Span) -> Span:
    span.content = " ".join(span.content.split())
    span.version += 1
    return span


def normalize_span_tracked(span: Span) -> Span:
    span.content = " ".join(span.content.split())
    span.version += 1
    span.digest = content_hash(span.content)
    return span


def redact_copy(store: SpanStore, span: Span) -> Span:
    new = Span(span_id=uuid.uuid4().hex, content=EMAIL.sub("[email]", span.content))
    new.digest = content_hash(new.content)
    store.spans[new.span_id] = new
    store.tombstones[span.span_id] = Tombstone(span.span_id, span.content, time.time())
    return new


def compress_nodes(nodes: list[TextNode], limit: int) -> None:
    for node in nodes:
        if len(node.text) > limit:
            node.text = node.text[:limit]


def shorten_node(node: TextNode, short: str) -> TextNode:
    node.set_content(short)
    return node


def rewrite_node_reset(node: TextNode, text: str) -> TextNode:
    node.set_content(text)
    node.embedding = None
    node.start_char_idx = None
    node.end_char_idx = None
    node.metadata["version"] = int(node.metadata.get("version", 0)) + 1
    node.metadata["content_hash"] = content_hash(text)
    return node


def clean_text(text: str) -> str:
    text = text.strip()
    text = re.sub(r"\s+", " ", text)
    return text
