"""Document transformers applied between splitting and indexing."""

from __future__ import annotations

import re
from typing import Any, Sequence

from langchain_core.documents import BaseDocumentTransformer, Document

from .records import HASH_KEY, VERSION_KEY, content_hash

EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
PHONE_RE = re.compile(r"\+?\d[\d\s().-]{7,}\d")
FOOTER_RE = re.compile(r"^(?:confidential|internal use only)[^\n]*\n", re.IGNORECASE | re.MULTILINE)
WS_RE = re.compile(r"[ \u00a0]{2,}")


class WhitespaceNormalizer(BaseDocumentTransformer):
    """Collapse runs of spaces. Produces new chunk versions."""

    def transform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        out: list[Document] = []
        for doc in documents:
            text = WS_RE.sub(" ", doc.page_content)
            if text == doc.page_content:
                out.append(doc)
                continue
            meta = dict(doc.metadata)
            meta[VERSION_KEY] = int(meta.get(VERSION_KEY, 0)) + 1
            meta[HASH_KEY] = content_hash(text)
            meta["char_len"] = len(text)
            meta.pop("start_index", None)
            meta["produced_by"] = "rewrite:normalize"
            out.append(Document(id=doc.id, page_content=text, metadata=meta))
        return out


class PiiRedactor(BaseDocumentTransformer):
    """Mask e-mail addresses and phone numbers before chunks reach the index."""

    mask: str = "[redacted]"

    def transform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        for doc in documents:
            redacted = EMAIL_RE.sub(self.mask, doc.page_content)
            redacted = PHONE_RE.sub(self.mask, redacted)
            if redacted != doc.page_content:
                doc.page_content = redacted
                doc.metadata["pii_redacted"] = True
        return documents


class BoilerplateStripper(BaseDocumentTransformer):
    """Drop "Confidential" banners that every exported page starts with."""

    def transform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        return [self._strip(doc) for doc in documents]

    def _strip(self, doc: Document) -> Document:
        text = FOOTER_RE.sub("", doc.page_content)
        if text == doc.page_content:
            return doc
        return Document(
            id=doc.id,
            page_content=text,
            metadata={
                **doc.metadata,
                VERSION_KEY: int(doc.metadata.get(VERSION_KEY, 0)) + 1,
                HASH_KEY: content_hash(text),
                "produced_by": "rewrite:strip_boilerplate",
            },
        )


class SectionTagger(BaseDocumentTransformer):
    """Attach the nearest markdown heading as ``section`` metadata."""

    def transform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        tagged = []
        for doc in documents:
            heading = next(
                (ln.lstrip("# ").strip() for ln in doc.page_content.splitlines() if ln.startswith("#")),
                None,
            )
            tagged.append(
                Document(id=doc.id, page_content=doc.page_content, metadata={**doc.metadata, "section": heading})
            )
        return tagged
