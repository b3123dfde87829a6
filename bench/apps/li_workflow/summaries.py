"""Case digests stored as nodes next to the case documents."""

from __future__ import annotations

from typing import List, Optional

from llama_index.core import PromptTemplate
from llama_index.core.llms import LLM
from llama_index.core.schema import MetadataMode, NodeRelationship, RelatedNodeInfo, TextNode
from llama_index.core.storage.docstore.types import BaseDocumentStore

from li_workflow.spans import CONTENT_SHA, PRODUCED_BY, SPAN_VERSION, content_digest

DIGEST_KIND = "case_digest"

DIGEST_PROMPT = PromptTemplate(
    "Summarize the case material below for an engineer picking up the ticket. "
    "Keep error codes, versions, hostnames and dates verbatim.\n---\n{context_str}\n---\nDigest:"
)


def _digest_node(text: str, case_id: str, **metadata: object) -> TextNode:
    return TextNode(
        text=text,
        metadata={
            "kind": DIGEST_KIND,
            "case_id": case_id,
            SPAN_VERSION: 0,
            CONTENT_SHA: content_digest(text),
            PRODUCED_BY: "summarize",
            **metadata,
        },
        excluded_embed_metadata_keys=[SPAN_VERSION, CONTENT_SHA, PRODUCED_BY],
    )


async def digest_from_sources(
    docstore: BaseDocumentStore, llm: LLM, case_id: str, ref_doc_ids: List[str]
) -> Optional[TextNode]:
    chunks: List[str] = []
    node_ids: List[str] = []
    for ref_doc_id in ref_doc_ids:
        info = await docstore.aget_ref_doc_info(ref_doc_id)
        if info is None:
            continue
        nodes = await docstore.aget_nodes(info.node_ids, raise_error=False)
        for n in nodes:
            if n.metadata.get("kind") == DIGEST_KIND:
                continue
            chunks.append(n.get_content(metadata_mode=MetadataMode.NONE))
            node_ids.append(n.node_id)
    if not chunks:
        return None
    text = await llm.apredict(DIGEST_PROMPT, context_str="\n\n".join(chunks))
    node = _digest_node(text.strip(), case_id, source_node_ids=node_ids, generation=0)
    node.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(node_id=ref_doc_ids[0])
    await docstore.async_add_documents([node])
    return node


async def refresh_digest(
    docstore: BaseDocumentStore, llm: LLM, case_id: str, digest_id: str, note: str = ""
) -> TextNode:
    prev = await docstore.aget_node(digest_id)
    material = prev.get_content(metadata_mode=MetadataMode.NONE)
    if note:
        material = f"{material}\n\nLatest update: {note}"
    text = await llm.apredict(DIGEST_PROMPT, context_str=material)
    node = _digest_node(text.strip(), case_id)
    await docstore.async_add_documents([node])
    return node


async def condense_digest(
    docstore: BaseDocumentStore, llm: LLM, case_id: str, digest_id: str
) -> TextNode:
    prev = await docstore.aget_node(digest_id)
    text = await llm.apredict(
        DIGEST_PROMPT, context_str=prev.get_content(metadata_mode=MetadataMode.NONE)
    )
    node = _digest_node(
        text.strip(),
        case_id,
        summary_of=prev.node_id,
        generation=int(prev.metadata.get("generation", 0)) + 1,
        source_node_ids=list(prev.metadata.get("source_node_ids", [])),
    )
    node.relationships[NodeRelationship.PARENT] = prev.as_related_node_info()
    if prev.source_node is not None:
        node.relationships[NodeRelationship.SOURCE] = prev.source_node
    await docstore.async_add_documents([node])
    return node
