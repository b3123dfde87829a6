"""View models for the chat panel (rendered by the web front end)."""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import uuid4


@dataclass
class MessageBubble:
    id: str
    role: str
    text: str = ""
    footnotes: list[str] = field(default_factory=list)


class ChatPanel:
    def __init__(self, max_bubbles: int = 200) -> None:
        self.bubbles: dict[str, MessageBubble] = {}
        self.max_bubbles = max_bubbles

    def open(self, role: str) -> MessageBubble:
        bubble = MessageBubble(id=uuid4().hex, role=role)
        self.bubbles[bubble.id] = bubble
        return bubble

    def stream(self, bubble_id: str, chunk: str) -> None:
        self.bubbles[bubble_id].text += chunk

    def finish(self, bubble_id: str, final_text: str, footnotes: list[str]) -> None:
        bubble = self.bubbles[bubble_id]
        bubble.text = final_text
        bubble.footnotes = footnotes
        while len(self.bubbles) > self.max_bubbles:
            self.bubbles.pop(next(iter(self.bubbles)))
