"""Ingestion TransformComponents and retrieval node postprocessors."""

from __future__ import annotations

import re
import time
import uuid
from typing import Any, List, Optional, Sequence

from llama_index.core import PromptTemplate
from llama_index.core.bridge.pydantic import Field
from llama_index.core.llms import LLM
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import (
    BaseNode,
    MetadataMode,
    NodeRelationship,
    NodeWithScore,
    QueryBundle,
    TextNode,
    TransformComponent,
)

from li_workflow.spans import (
    BOOKKEEPING_KEYS,
    CONTENT_SHA,
    PRODUCED_BY,
    SPAN_VERSION,
    TOMBSTONED_AT,
    content_digest,
)

_MD_LINK = re.compile(r"\[([^\]]+)\]\([^)]+\)")
_MD_EMPH = re.compile(r"(\*\*|__|\*|_|`)(.+?)\1")
_MD_HEAD = re.compile(r"^#{1,6}\s+", re.MULTILINE)
_FOOTER = re.compile(
    r"(?:^|\n)(?:--\s*\n|Sent from my .+|This e-?mail .{0,400}?confidential.*)$",
    re.IGNORECASE | re.DOTALL,
)
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.]+\b")


def _squash(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip()


class SpanStamp(TransformComponent):
    """Give freshly split nodes their span bookkeeping."""

    produced_by: str = "ingest"

    def __call__(self, nodes: Sequence[BaseNode], **kwargs: Any) -> Sequence[BaseNode]:
        for node in nodes:
            if not isinstance(node, TextNode):
                continue
            node.metadata.setdefault(SPAN_VERSION, 0)
            node.metadata[CONTENT_SHA] = content_digest(node.text)
            node.metadata.setdefault(PRODUCED_BY, self.produced_by)
            for key in BOOKKEEPING_KEYS:
                if key not in node.excluded_embed_metadata_keys:
                    node.excluded_embed_metadata_keys.append(key)
                if key not in node.excluded_llm_metadata_keys:
                    node.excluded_llm_metadata_keys.append(key)
        return nodes


class MarkdownStripper(TransformComponent):
    """Plain-text the markdown that ticket exports are full of."""

    keep_link_text: bool = True

    def __call__(self, nodes: Sequence[BaseNode], **kwargs: Any) -> Sequence[BaseNode]:
        for node in nodes:
            if not isinstance(node, TextNode):
                continue
            plain = _MD_HEAD.sub("", node.text)
            plain = _MD_LINK.sub(r"\1" if self.keep_link_text else "", plain)
            plain = _MD_EMPH.sub(r"\2", plain)
            plain = _squash(plain)
            if plain == node.text:
                continue
            node.text = plain
            node.metadata[SPAN_VERSION] = int(node.metadata.get(SPAN_VERSION, 0)) + 1
            node.metadata[PRODUCED_BY] = "rewrite:markdown"
        return nodes


class BoilerplateStripper(TransformComponent):
    """Drop mail footers and signatures before embedding."""

    min_chars: int = Field(default=40, description="Keep nodes shorter than this untouched.")

    def __call__(self, nodes: Sequence[BaseNode], **kwargs: Any) -> Sequence[BaseNode]:
        for node in nodes:
            if not isinstance(node, TextNode) or len(node.text) < self.min_chars:
                continue
            stripped = _FOOTER.sub("", node.text).rstrip()
            if stripped == node.text:
                continue
            node.text = stripped
            node.metadata[SPAN_VERSION] = int(node.metadata.get(SPAN_VERSION, 0)) + 1
            node.metadata[CONTENT_SHA] = content_digest(stripped)
            node.metadata[PRODUCED_BY] = "rewrite:boilerplate"
            node.embedding = None
            node.start_char_idx = None
            node.end_char_idx = None
        return nodes


class PIIRedactor(TransformComponent):
    """Replace addresses with placeholders; the original stays readable in the docstore."""

    placeholder: str = "[email]"

    def __call__(self, nodes: Sequence[BaseNode], **kwargs: Any) -> Sequence[BaseNode]:
        out: List[BaseNode] = []
        for node in nodes:
            if not isinstance(node, TextNode) or not _EMAIL.search(node.text):
                out.append(node)
                continue
            redacted_text = _EMAIL.sub(self.placeholder, node.text)
            redacted = TextNode(
                id_=str(uuid.uuid4()),
                text=redacted_text,
                metadata={
                    **node.metadata,
                    SPAN_VERSION: 0,
                    CONTENT_SHA: content_digest(redacted_text),
                    PRODUCED_BY: "rewrite:pii",
                    "redacted_from": node.node_id,
                },
                excluded_embed_metadata_keys=list(node.excluded_embed_metadata_keys),
                excluded_llm_metadata_keys=list(node.excluded_llm_metadata_keys),
            )
            if node.source_node is not None:
                redacted.relationships[NodeRelationship.SOURCE] = node.source_node
            redacted.relationships[NodeRelationship.PARENT] = node.as_related_node_info()
            node.metadata[TOMBSTONED_AT] = time.time()
            out.extend([node, redacted])
        return out


COMPRESS_PROMPT = PromptTemplate(
    "Keep only the sentences of the passage that help answer the question.\n"
    "Question: {query_str}\nPassage:\n{context_str}\nKept sentences:"
)


class ContextCompressor(BaseNodePostprocessor):
    """Squeeze long retrieved passages down to the query-relevant sentences."""

    llm: LLM = Field(description="LLM used to compress passages.")
    max_chars: int = Field(default=1_200)

    @classmethod
    def class_name(cls) -> str:
        return "ContextCompressor"

    def _postprocess_nodes(
        self,
        nodes: List[NodeWithScore],
        query_bundle: Optional[QueryBundle] = None,
    ) -> List[NodeWithScore]:
        if query_bundle is None:
            return nodes
        for nws in nodes:
            node = nws.node
            if not isinstance(node, TextNode):
                continue
            text = node.get_content(metadata_mode=MetadataMode.NONE)
            if len(text) <= self.max_chars:
                continue
            kept = self.llm.predict(
                COMPRESS_PROMPT, query_str=query_bundle.query_str, context_str=text
            )
            node.set_content(kept.strip())
        return nodes


class TombstoneFilter(BaseNodePostprocessor):
    """Hide tombstoned nodes from the answer context."""

    tombstone_key: str = TOMBSTONED_AT

    @classmethod
    def class_name(cls) -> str:
        return "TombstoneFilter"

    def _postprocess_nodes(
        self,
        nodes: List[NodeWithScore],
        query_bundle: Optional[QueryBundle] = None,
    ) -> List[NodeWithScore]:
        return [n for n in nodes if self.tombstone_key not in n.node.metadata]
