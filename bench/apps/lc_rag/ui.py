"""View models for the chat panel and the source viewer."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from langchain_core.documents import Document

from .citations import Citation


@dataclass
class ChatBubble:
    id: str
    role: str
    text: str = ""
    streaming: bool = False
    chips: list["CitationChip"] = field(default_factory=list)


@dataclass
class CitationChip:
    id: str
    label: str
    tooltip: str = ""
    active: bool = False


class ChatPanel:
    def __init__(self) -> None:
        self.bubbles: dict[str, ChatBubble] = {}
        self.order: list[str] = []

    def open_bubble(self, bubble_id: str, role: str) -> ChatBubble:
        bubble = ChatBubble(id=bubble_id, role=role, streaming=True)
        self.bubbles[bubble_id] = bubble
        self.order.append(bubble_id)
        return bubble

    def on_token(self, bubble_id: str, token: str) -> None:
        bubble = self.bubbles[bubble_id]
        bubble.text += token

    def finish(self, bubble_id: str, citations: list[Citation]) -> None:
        bubble = self.bubbles[bubble_id]
        bubble.streaming = False
        bubble.text = bubble.text.strip()
        bubble.chips = [CitationChip(id=f"{bubble_id}:{i}", label=c.label) for i, c in enumerate(citations)]

    def close_oldest(self, keep: int = 50) -> None:
        while len(self.order) > keep:
            self.bubbles.pop(self.order.pop(0), None)


class SourceViewer:
    """Read-only view over retrieved chunks for the side panel."""

    def __init__(self, docs: list[Document]) -> None:
        self._docs: Mapping[str, Document] = MappingProxyType({d.id: d for d in docs if d.id})

    def titles(self) -> list[str]:
        return [f"{d.metadata.get('source', '?')} @ {d.metadata.get('start_index', 0)}" for d in self._docs.values()]

    def preview(self, chunk_id: str, width: int = 240) -> str:
        doc = self._docs.get(chunk_id)
        if doc is None:
            return ""
        text = doc.page_content
        return text if len(text) <= width else text[: width - 1] + "…"
