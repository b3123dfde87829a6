import hashlib
from typing import Dict, List, Tuple

from .models import Span


def embed(text: str) -> List[float]:
    digest = hashlib.md5(text.encode("utf-8")).digest()
    return [b / 255.0 for b in digest[:8]]


class EmbeddingCache:
    def __init__(self) -> None:
        self._by_id: Dict[str, List[float]] = {}
        self._by_key: Dict[Tuple[str, int, str], List[float]] = {}

    def vector_for(self, span: Span) -> List[float]:
        if span.span_id not in self._by_id:
            self._by_id[span.span_id] = embed(span.content)
        return self._by_id[span.span_id]

    def keyed_vector(self, span: Span) -> List[float]:
        key = (span.span_id, span.version, span.hash)
        if key not in self._by_key:
            self._by_key[key] = embed(span.content)
        return self._by_key[key]


def embed_text_cached(cache: Dict[str, List[float]], text: str) -> List[float]:
    if text not in cache:
        cache[text] = embed(text)
    return cache[text]
