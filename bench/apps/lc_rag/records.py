"""Helpers for stamping and revising chunk documents.

Every chunk that enters the index carries ``version`` and ``content_hash`` in
its metadata so that downstream consumers (citations, caches, the vector
store) can tell which text they were built from.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from langchain_core.documents import Document

VERSION_KEY = "version"
HASH_KEY = "content_hash"
START_KEY = "start_index"


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fingerprint(doc: Document) -> tuple[str, int, str]:
    """Return the ``(id, version, content_hash)`` triple for a chunk."""
    meta = doc.metadata
    return (doc.id or "", int(meta.get(VERSION_KEY, 0)), meta.get(HASH_KEY, ""))


def stamp(doc: Document, *, doc_id: str, produced_by: str = "ingest") -> Document:
    """Build the indexed form of a freshly split chunk."""
    meta: dict[str, Any] = dict(doc.metadata)
    meta[VERSION_KEY] = 0
    meta[HASH_KEY] = content_hash(doc.page_content)
    meta["char_len"] = len(doc.page_content)
    meta["produced_by"] = produced_by
    meta["indexed_at"] = time.time()
    return Document(id=doc_id, page_content=doc.page_content, metadata=meta)


def revise(doc: Document, new_text: str, *, op: str) -> Document:
    """Return a rewritten copy of ``doc`` under a new id.

    The original chunk is left untouched so that anything still holding it
    (a citation, a cached embedding) keeps pointing at the text it was made
    from.
    """
    version = int(doc.metadata.get(VERSION_KEY, 0)) + 1
    meta = {k: v for k, v in doc.metadata.items() if k not in (START_KEY, "char_len")}
    meta.update(
        {
            VERSION_KEY: version,
            HASH_KEY: content_hash(new_text),
            "char_len": len(new_text),
            "produced_by": f"rewrite:{op}",
            "derived_from": doc.id,
            "derived_from_hash": doc.metadata.get(HASH_KEY),
        }
    )
    return Document(id=f"{doc.id}@{op}:{version}", page_content=new_text, metadata=meta)


def apply_correction(doc: Document, corrected: str, editor: str) -> Document:
    """Apply an editor's typo fix to a chunk (used by the admin console)."""
    doc.page_content = corrected
    doc.metadata[VERSION_KEY] = int(doc.metadata.get(VERSION_KEY, 0)) + 1
    doc.metadata["char_len"] = len(corrected)
    doc.metadata["corrected_by"] = editor
    doc.metadata["corrected_at"] = time.time()
    return doc


def is_current(doc: Document, version: int, digest: str) -> bool:
    meta = doc.metadata
    return int(meta.get(VERSION_KEY, 0)) == version and meta.get(HASH_KEY) == digest
