"""Knowledge sources handed to the research crew."""

from __future__ import annotations

import logging
from pathlib import Path

from crewai.knowledge.source.string_knowledge_source import StringKnowledgeSource
from crewai.knowledge.source.text_file_knowledge_source import TextFileKnowledgeSource

from crew_flow.operators import redact_text

log = logging.getLogger(__name__)

BRIEFING_COLLECTION = "crew_flow_briefing"


def briefing_source(text: str, chunk_size: int = 1_200, chunk_overlap: int = 120) -> StringKnowledgeSource:
    return StringKnowledgeSource(
        content=redact_text(text),
        chunk_size=chunk_size,
        chunk_overlap=chunk_overlap,
        collection_name=BRIEFING_COLLECTION,
        metadata={"origin": "briefing"},
    )


def handbook_sources(knowledge_dir: Path) -> list[TextFileKnowledgeSource]:
    files = sorted(p.name for p in knowledge_dir.glob("*.md"))
    if not files:
        return []
    return [TextFileKnowledgeSource(file_paths=files, chunk_size=2_000, chunk_overlap=200)]


def refresh_briefing(source: StringKnowledgeSource, text: str) -> StringKnowledgeSource:
    updated = redact_text(text)
    if updated == source.content:
        return source
    source.content = updated
    source.validate_content()
    source.metadata["revision"] = int(source.metadata.get("revision", 0)) + 1
    log.info("briefing updated (%d chars)", len(updated))
    return source


def replace_briefing(source: StringKnowledgeSource, text: str) -> StringKnowledgeSource:
    source.content = redact_text(text)
    source.validate_content()
    source.chunks = []
    source.chunk_embeddings = []
    if source.storage is not None:
        source.storage.reset()
        source.add()
    source.metadata["revision"] = int(source.metadata.get("revision", 0)) + 1
    return source
