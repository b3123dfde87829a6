"""Ingestion of case documents into the docstore and the vector index."""

from __future__ import annotations

import logging
from typing import Optional, Sequence

from llama_index.core import StorageContext, VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.ingestion import DocstoreStrategy, IngestionPipeline
from llama_index.core.node_parser import SentenceSplitter
from llama_index.core.schema import BaseNode, Document
from llama_index.core.storage.docstore import SimpleDocumentStore
from llama_index.core.storage.docstore.types import BaseDocumentStore

from li_workflow.decision_log import DecisionLog, new_edit_id
from li_workflow.transforms import (
    BoilerplateStripper,
    MarkdownStripper,
    PIIRedactor,
    SpanStamp,
)

logger = logging.getLogger(__name__)


def build_pipeline(
    embed_model: BaseEmbedding,
    docstore: Optional[BaseDocumentStore] = None,
    chunk_size: int = 512,
    chunk_overlap: int = 48,
) -> IngestionPipeline:
    return IngestionPipeline(
        name="casefile",
        transformations=[
            SentenceSplitter(chunk_size=chunk_size, chunk_overlap=chunk_overlap),
            SpanStamp(),
            MarkdownStripper(),
            BoilerplateStripper(),
            PIIRedactor(),
            embed_model,
        ],
        docstore=docstore or SimpleDocumentStore(),
        docstore_strategy=DocstoreStrategy.UPSERTS,
    )


def build_index(
    pipeline: IngestionPipeline,
    documents: Sequence[Document],
    embed_model: BaseEmbedding,
) -> VectorStoreIndex:
    nodes: list[BaseNode] = pipeline.run(documents=list(documents), show_progress=False)
    storage_context = StorageContext.from_defaults(docstore=pipeline.docstore)
    index = VectorStoreIndex(
        nodes=nodes,
        storage_context=storage_context,
        embed_model=embed_model,
        store_nodes_override=True,
    )
    logger.info("indexed %d nodes from %d documents", len(nodes), len(documents))
    return index


def refresh_sources(index: VectorStoreIndex, documents: Sequence[Document]) -> int:
    changed = index.refresh_ref_docs(list(documents))
    n = sum(1 for c in changed if c)
    logger.info("refreshed %d/%d documents", n, len(documents))
    return n


def retire_document(
    index: VectorStoreIndex, log: DecisionLog, ref_doc_id: str, reason: str
) -> bool:
    info = index.ref_doc_info.get(ref_doc_id)
    if info is None:
        return False
    log.record(
        edit_id=new_edit_id("retire"),
        op="retire_document",
        rationale=reason,
        span_ids=[ref_doc_id, *info.node_ids],
        evidence=str(info.metadata.get("file_name", "")),
    )
    index.delete_ref_doc(ref_doc_id, delete_from_docstore=True)
    return True
