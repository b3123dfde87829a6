"""Cleaning components for wire stories."""

from __future__ import annotations

import html
import re
from typing import List

from haystack import Document, component

TAGS = re.compile(r"<[^>]+>")
DATELINE = re.compile(r"^[A-Z][A-Z ,.]+\((?:AP|Reuters|AFP)\)\s*[-\u2014]\s*")


@component
class HtmlStripper:
    """Removes markup that survived the feed parser."""

    @component.output_types(documents=List[Document])
    def run(self, documents: List[Document]):
        for doc in documents:
            if doc.content is None:
                continue
            doc.content = html.unescape(TAGS.sub("", doc.content))
        return {"documents": documents}


@component
class DatelineRemover:
    @component.output_types(documents=List[Document])
    def run(self, documents: List[Document]):
        out = []
        for doc in documents:
            text = DATELINE.sub("", doc.content or "")
            out.append(Document(content=text, meta={**doc.meta, "derived_from": doc.id}))
        return {"documents": out}


@component
class Truncator:
    max_chars: int = 6000

    @component.output_types(documents=List[Document])
    def run(self, documents: List[Document]):
        from dataclasses import replace

        out = []
        for d in documents:
            if d.content and len(d.content) > self.max_chars:
                d = replace(d, content=d.content[: self.max_chars])
            out.append(d)
        return {"documents": out}
