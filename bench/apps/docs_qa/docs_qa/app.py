"""Wires the pieces together."""

from __future__ import annotations

from typing import List, Tuple

from llama_index.core import Settings, StorageContext, VectorStoreIndex, load_index_from_storage
from llama_index.core.schema import NodeWithScore

from docs_qa.citations import CitationRenderer, cite
from docs_qa.config import AppConfig, load_config
from docs_qa.curation import CurationLog
from docs_qa.docstore_ops import Tombstones
from docs_qa.ingest import ingest
from docs_qa.postprocessors import LeadSentenceCompressor, PhoneRedactor, ScoreCutoff, SSNRedactor


class HandbookQA:
    def __init__(self, cfg: AppConfig | None = None) -> None:
        self.cfg = cfg or load_config()
        self.log = CurationLog()
        self.feedback: List[dict] = []
        try:
            storage = StorageContext.from_defaults(persist_dir=self.cfg.persist_dir)
            self.index = load_index_from_storage(storage)
        except FileNotFoundError:
            nodes = ingest(self.cfg, Settings.embed_model)
            self.index = VectorStoreIndex(nodes)
            self.index.storage_context.persist(self.cfg.persist_dir)
        self.tombstones = Tombstones(self.index.docstore, self.log)
        self.engine = self.index.as_query_engine(
            similarity_top_k=self.cfg.similarity_top_k,
            node_postprocessors=[ScoreCutoff(cutoff=self.cfg.min_score), SSNRedactor(), PhoneRedactor(), LeadSentenceCompressor()],
        )

    def ask(self, question: str, top_k: int = 6) -> Tuple[str, List[NodeWithScore]]:
        response = self.engine.query(question)
        sources = response.source_nodes[:top_k]
        for s in sources:
            if s.node.metadata.get("format") == "markdown":
                s.node.text = s.node.get_content().replace("**", "")
        citations = [cite(s, 0, min(200, len(s.node.get_content()))) for s in sources]
        nodes_by_id = {s.node.node_id: s.node for s in sources}
        footer = CitationRenderer(nodes_by_id).render(citations)
        return f"{response.response}\n\n{footer}", sources

    def nightly(self) -> None:
        self.tombstones.sweep(self.cfg.tombstone_ttl_s)
