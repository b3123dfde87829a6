"""Load company documents, split them into chunks and index them."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Iterable

from langchain_community.document_loaders import TextLoader
from langchain_core.documents import Document
from langchain_text_splitters import RecursiveCharacterTextSplitter

from .records import stamp
from .settings import RagSettings
from .transformers import BoilerplateStripper, PiiRedactor, SectionTagger, WhitespaceNormalizer
from .vector_index import ChunkIndex

SUPPORTED_SUFFIXES = {".txt", ".md", ".rst"}


def iter_source_files(root: Path) -> Iterable[Path]:
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix.lower() in SUPPORTED_SUFFIXES:
            yield path


def load_sources(root: Path) -> list[Document]:
    docs: list[Document] = []
    for path in iter_source_files(root):
        for doc in TextLoader(str(path), encoding="utf-8").load():
            raw = doc.page_content
            raw = raw.replace("\r\n", "\n").replace("\t", "    ")
            raw = raw.strip("\ufeff")
            docs.append(
                Document(
                    page_content=raw,
                    metadata={**doc.metadata, "source": str(path.relative_to(root))},
                )
            )
    return docs


def chunk_id(source: str, start_index: int) -> str:
    digest = hashlib.blake2b(f"{source}:{start_index}".encode(), digest_size=8)
    return f"chk_{digest.hexdigest()}"


def build_splitter(settings: RagSettings) -> RecursiveCharacterTextSplitter:
    return RecursiveCharacterTextSplitter(
        chunk_size=settings.chunk_size,
        chunk_overlap=settings.chunk_overlap,
        add_start_index=True,
    )


def split_and_stamp(docs: list[Document], settings: RagSettings) -> list[Document]:
    splitter = build_splitter(settings)
    chunks = splitter.split_documents(docs)
    return [
        stamp(c, doc_id=chunk_id(c.metadata["source"], c.metadata["start_index"]))
        for c in chunks
    ]


def ingest_directory(root: Path, index: ChunkIndex, settings: RagSettings) -> list[str]:
    sources = load_sources(root)
    chunks = split_and_stamp(sources, settings)
    for step in (PiiRedactor(), BoilerplateStripper(), WhitespaceNormalizer(), SectionTagger()):
        chunks = list(step.transform_documents(chunks))
    return index.add(chunks)
