"""Custom Haystack components used by the ingestion and editing pipelines."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from haystack import Document, component

from .spans import HASH_KEY, ORIGIN_KEY, VERSION_KEY, content_hash, stamp, version_of


@component
class SpanStamper:
    """Adds version / content-hash bookkeeping to documents coming out of the splitter."""

    def __init__(self, origin: str = "ingest") -> None:
        self.origin = origin

    @component.output_types(documents=list[Document])
    def run(self, documents: list[Document]) -> dict[str, Any]:
        return {"documents": [stamp(doc, origin=self.origin) for doc in documents]}


@component
class HashingEmbedder:
    """Offline embedder: deterministic bag-of-hashed-tokens vectors."""

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim

    def embed_text(self, text: str) -> list[float]:
        vec = [0.0] * self.dim
        for token in re.findall(r"\w+", text.lower()):
            bucket = int(hashlib.md5(token.encode()).hexdigest(), 16) % self.dim
            vec[bucket] += 1.0
        norm = sum(v * v for v in vec) ** 0.5 or 1.0
        return [v / norm for v in vec]

    @component.output_types(documents=list[Document])
    def run(self, documents: list[Document]) -> dict[str, Any]:
        for doc in documents:
            doc.embedding = self.embed_text(doc.content or "")
        return {"documents": documents}


@component
class PolicyRedactor:
    """Masks policy-restricted phrases (internal codenames, partner names) in stored articles."""

    def __init__(self, phrases: list[str], mask: str = "[restricted]") -> None:
        self.phrases = phrases
        self.mask = mask
        self._rx = re.compile("|".join(re.escape(p) for p in phrases), re.IGNORECASE) if phrases else None

    @component.output_types(documents=list[Document], changed=int)
    def run(self, documents: list[Document]) -> dict[str, Any]:
        out: list[Document] = []
        changed = 0
        for doc in documents:
            text = doc.content or ""
            masked = self._rx.sub(self.mask, text) if self._rx else text
            if masked == text:
                out.append(doc)
                continue
            changed += 1
            out.append(
                Document(
                    id=doc.id,
                    content=masked,
                    meta={
                        **doc.meta,
                        VERSION_KEY: version_of(doc) + 1,
                        HASH_KEY: content_hash(masked),
                        ORIGIN_KEY: "rewrite:policy",
                    },
                    embedding=doc.embedding,
                )
            )
        return {"documents": out, "changed": changed}


@component
class PiiScrubber:
    """Removes e-mail addresses and ID numbers from stored articles."""

    def __init__(self, patterns: list[str], replacement: str = "[redacted]") -> None:
        self.patterns = [re.compile(p) for p in patterns]
        self.replacement = replacement

    @component.output_types(documents=list[Document], changed=int)
    def run(self, documents: list[Document]) -> dict[str, Any]:
        out: list[Document] = []
        changed = 0
        for doc in documents:
            text = doc.content or ""
            scrubbed = text
            for rx in self.patterns:
                scrubbed = rx.sub(self.replacement, scrubbed)
            if scrubbed == text:
                out.append(doc)
                continue
            changed += 1
            meta = {k: v for k, v in doc.meta.items() if k not in ("token_count", "split_idx_start")}
            meta.update({VERSION_KEY: version_of(doc) + 1, HASH_KEY: content_hash(scrubbed), ORIGIN_KEY: "rewrite:pii"})
            out.append(Document(id=doc.id, content=scrubbed, meta=meta, embedding=None))
        return {"documents": out, "changed": changed}
