"""Semantic recall over past messages of the same customer."""

from __future__ import annotations

import hashlib
from typing import Dict, List, Tuple

from langchain_core.embeddings import Embeddings
from langchain_core.messages import BaseMessage


def _text(m: BaseMessage) -> str:
    return m.content if isinstance(m.content, str) else str(m.content)


class MessageRecall:
    def __init__(self, embeddings: Embeddings) -> None:
        self.embeddings = embeddings
        self.vectors: Dict[str, List[float]] = {}

    def index(self, messages: List[BaseMessage]) -> None:
        todo = [m for m in messages if m.id not in self.vectors]
        if not todo:
            return
        vecs = self.embeddings.embed_documents([_text(m) for m in todo])
        for m, v in zip(todo, vecs):
            self.vectors[m.id] = v


class ContentKeyedRecall:
    def __init__(self, embeddings: Embeddings) -> None:
        self.embeddings = embeddings
        self.vectors: Dict[Tuple[str, str], List[float]] = {}

    def vector(self, m: BaseMessage) -> List[float]:
        key = (m.id, hashlib.sha256(_text(m).encode()).hexdigest())
        if key not in self.vectors:
            self.vectors[key] = self.embeddings.embed_query(_text(m))
        return self.vectors[key]
