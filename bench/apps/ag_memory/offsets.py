from typing import Dict, List

from .models import OffsetMap, Span


def sentence_offsets(text: str) -> List[int]:
    out = [0]
    for i, ch in enumerate(text):
        if ch in ".!?":
            out.append(i + 1)
    return out


class OffsetIndex:
    def __init__(self) -> None:
        self._maps: Dict[str, OffsetMap] = {}

    def build(self, span: Span) -> OffsetMap:
        m = OffsetMap(span_id=span.span_id, offsets=sentence_offsets(span.content))
        self._maps[span.span_id] = m
        return m

    def sentence(self, span: Span, n: int) -> str:
        m = self._maps[span.span_id]
        return span.content[m.offsets[n]:m.offsets[n + 1]]
