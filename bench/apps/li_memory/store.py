from dataclasses import dataclass
from typing import Dict, Optional

from .models import Span, Tombstone, content_hash


class SpanStore:
    def __init__(self) -> None:
        self.spans: Dict[str, Span] = {}
        self.tombstones: Dict[str, Tombstone] = {}

    def add(self, span_id: str, content: str) -> Span:
        span = Span(span_id=span_id, content=content, digest=content_hash(content))
        self.spans[span_id] = span
        return span

    def get(self, span_id: str) -> Optional[Span]:
        return self.spans.get(span_id)

    def delete(self, span_id: str) -> None:
        self.spans.pop(span_id, None)

    def replace_text(self, span_id: str, new_text: str) -> Span:
        span = self.spans[span_id]
        copy = span.model_copy(update={"content": new_text})
        self.spans[span_id] = copy
        return copy


@dataclass
class UserRow:
    id: int
    name: str


class UserTable:
    def __init__(self) -> None:
        self.rows: Dict[int, UserRow] = {}

    def rename(self, user_id: int, name: str) -> None:
        row = self.rows[user_id]
        row.name = name
        self.rows[user_id] = row
