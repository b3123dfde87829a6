"""The rolling 'what happened today' digest for the homepage."""

from __future__ import annotations

from typing import List

from haystack import Document
from haystack.components.generators import OpenAIGenerator

generator = OpenAIGenerator(model="gpt-4o-mini")

TEMPLATE = "Write a five-line news digest.\n\nEarlier digest:\n{earlier}\n\nNew stories:\n{stories}"


def roll_digest(current: Document | None, stories: List[Document]) -> Document:
    earlier = current.content if current is not None else "(none)"
    body = "\n---\n".join(s.content or "" for s in stories)
    reply = generator.run(prompt=TEMPLATE.format(earlier=earlier, stories=body))["replies"][0]
    return Document(content=reply, meta={"kind": "digest"})


def daily_digest(stories: List[Document]) -> Document:
    body = "\n---\n".join(s.content or "" for s in stories)
    reply = generator.run(prompt=TEMPLATE.format(earlier="(none)", stories=body))["replies"][0]
    return Document(content=reply, meta={"kind": "digest", "source_ids": [s.id for s in stories]})
