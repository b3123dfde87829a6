# rules: SPL501
"""An async retrieval pipeline that stores highlight offsets and renders them later."""
from dataclasses import dataclass


@dataclass
class Passage:
    passage_id: str
    body: str
    revision: int


@dataclass
class Highlight:
    passage_id: str
    begin: int
    stop: int
    revision: int


class Renderer:
    def __init__(self, store) -> None:
        self.store = store

    async def render(self, highlight: Highlight) -> str:
        passage = await self.store.get(highlight.passage_id)
        return passage.body[highlight.begin : highlight.stop]  # expect: SPL501

    async def render_checked(self, highlight: Highlight) -> str:
        passage = await self.store.get(highlight.passage_id)
        if passage.revision != highlight.revision:
            return await self.recompute(passage, highlight)
        return passage.body[highlight.begin : highlight.stop]

    async def recompute(self, passage: Passage, highlight: Highlight) -> str:
        return passage.body

    def snippet(self, passage: Passage, width: int = 40) -> str:
        text = passage.body
        return text[:width]

    def around(self, passage: Passage, highlight: Highlight) -> str:
        text = passage.body
        begin = highlight.begin
        return text[begin : begin + 40]  # expect: SPL501
