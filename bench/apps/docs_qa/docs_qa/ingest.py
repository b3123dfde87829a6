"""Ingestion: read the handbook, clean it, split it, embed it."""

from __future__ import annotations

import re
from typing import Any, List, Sequence

from llama_index.core import SimpleDirectoryReader
from llama_index.core.ingestion import IngestionPipeline
from llama_index.core.node_parser import SentenceSplitter
from llama_index.core.schema import BaseNode, Document, TextNode, TransformComponent

from docs_qa.config import AppConfig

FOOTER = re.compile(r"\n?Confidential - internal use only\.?\s*$", re.I)
MULTISPACE = re.compile(r"[ \t]{2,}")


class FooterStripper(TransformComponent):
    """Removes the confidentiality footer every exported page carries."""

    def __call__(self, nodes: Sequence[BaseNode], **kwargs: Any) -> Sequence[BaseNode]:
        for node in nodes:
            if not isinstance(node, TextNode):
                continue
            node.text = FOOTER.sub("", node.text)
        return nodes


class SpaceCollapser(TransformComponent):
    def __call__(self, nodes: Sequence[BaseNode], **kwargs: Any) -> Sequence[BaseNode]:
        for node in nodes:
            cleaned = MULTISPACE.sub(" ", node.get_content())
            if cleaned != node.get_content():
                node.set_content(cleaned)
                node.start_char_idx = None
                node.end_char_idx = None
                node.embedding = None
        return nodes


def clean_documents(docs: List[Document]) -> List[Document]:
    out = []
    for doc in docs:
        fresh = Document(text=FOOTER.sub("", doc.text), metadata={**doc.metadata, "cleaned_from": doc.doc_id})
        out.append(fresh)
    return out


def build_pipeline(cfg: AppConfig, embed_model) -> IngestionPipeline:
    return IngestionPipeline(
        transformations=[
            SentenceSplitter(chunk_size=cfg.chunk_size, chunk_overlap=cfg.chunk_overlap),
            FooterStripper(),
            SpaceCollapser(),
            embed_model,
        ]
    )


def ingest(cfg: AppConfig, embed_model) -> List[BaseNode]:
    docs = SimpleDirectoryReader(cfg.data_dir, recursive=True).load_data()
    pipeline = build_pipeline(cfg, embed_model)
    return pipeline.run(documents=clean_documents(docs), show_progress=True)
