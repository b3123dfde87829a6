from typing import Dict, Iterable, List, Optional

from .models import Span, content_hash


class SpanStore:
    def __init__(self) -> None:
        self._spans: Dict[str, Span] = {}

    def put(self, span: Span) -> None:
        self._spans[span.span_id] = span

    def get(self, span_id: str) -> Optional[Span]:
        return self._spans.get(span_id)

    def live(self) -> List[Span]:
        return [s for s in self._spans.values() if not s.tombstoned]

    def all(self) -> Iterable[Span]:
        return list(self._spans.values())

    def remove(self, span_id: str) -> None:
        self._spans.pop(span_id, None)

    def replace_content(self, span_id: str, text: str) -> Span:
        span = self._spans[span_id]
        span.content = text
        span.version += 1
        span.hash = content_hash(text)
        return span

    def snapshot(self) -> Dict[str, str]:
        return {sid: s.content for sid, s in self._spans.items()}
