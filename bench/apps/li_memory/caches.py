from typing import Dict, List, Tuple

from llama_index.core.schema import TextNode

from .models import Span


class EmbeddingCache:
    def __init__(self) -> None:
        self._store: Dict[str, List[float]] = {}

    def put(self, span: Span, vector: List[float]) -> None:
        self._store[span.span_id] = vector

    def get(self, span: Span) -> List[float] | None:
        return self._store.get(span.span_id)


class VersionedEmbeddingCache:
    def __init__(self) -> None:
        self._store: Dict[Tuple[str, int, str], List[float]] = {}

    def put(self, span: Span, vector: List[float]) -> None:
        self._store[(span.span_id, span.version, span.digest)] = vector

    def get(self, span: Span) -> List[float] | None:
        return self._store.get((span.span_id, span.version, span.digest))


def build_offset_cache(nodes: List[TextNode]) -> Dict[str, Tuple[int, int]]:
    return {n.node_id: (n.start_char_idx or 0, n.end_char_idx or len(n.text)) for n in nodes}


def build_offset_cache_full(nodes: List[TextNode]) -> Dict[Tuple[str, str], Tuple[int, int]]:
    return {(n.node_id, n.hash): (n.start_char_idx or 0, n.end_char_idx or len(n.text)) for n in nodes}
