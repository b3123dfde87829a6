"""Maintenance of the docstore: corrections, deletions, clean-up."""

from __future__ import annotations

import time
from typing import Dict, Optional

from llama_index.core.storage.docstore import SimpleDocumentStore
from llama_index.core.schema import TextNode

from docs_qa.curation import CurationLog


def correct_node(docstore: SimpleDocumentStore, node_id: str, corrected: str) -> TextNode:
    """An editor fixes a typo in a chunk from the admin page."""
    node = docstore.get_node(node_id)
    node.text = corrected
    docstore.add_documents([node], allow_update=True)
    return node


def correct_node_and_reembed(docstore: SimpleDocumentStore, node_id: str, corrected: str, embed_model) -> TextNode:
    node = docstore.get_node(node_id)
    node.text = corrected
    node.embedding = embed_model.get_text_embedding(corrected)
    node.start_char_idx = None
    node.end_char_idx = None
    docstore.add_documents([node], allow_update=True)
    return node


class Tombstones:
    """Nodes an editor deleted; kept around for a while so old answers still render."""

    def __init__(self, docstore: SimpleDocumentStore, log: CurationLog) -> None:
        self.docstore = docstore
        self.log = log
        self.deleted_at: Dict[str, float] = {}

    def bury(self, node_id: str, reason: str) -> None:
        self.log.add("tombstone", node_id, reason)
        self.deleted_at[node_id] = time.time()

    def sweep(self, ttl_s: float, now: Optional[float] = None) -> int:
        now = now or time.time()
        swept = 0
        for node_id, ts in list(self.deleted_at.items()):
            if now - ts > ttl_s:
                self.docstore.delete_document(node_id, raise_error=False)
                del self.deleted_at[node_id]
                swept += 1
        return swept

    def sweep_unreferenced(self, ttl_s: float, cited_ids: set, now: Optional[float] = None) -> int:
        now = now or time.time()
        swept = 0
        for node_id, ts in list(self.deleted_at.items()):
            if now - ts <= ttl_s or node_id in cited_ids:
                continue
            self.docstore.delete_document(node_id, raise_error=False)
            del self.deleted_at[node_id]
            swept += 1
        return swept
