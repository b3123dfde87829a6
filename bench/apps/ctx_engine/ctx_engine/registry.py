"""Registry of things we derive from segments (vectors, sentence offsets, token counts)."""
import re
from collections import defaultdict
from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterable, Mapping

from .models import Embedder, Segment

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")

Span = tuple[int, int]


@dataclass(frozen=True)
class OffsetKey:
    seg_id: str
    rev: int
    digest: str

    @classmethod
    def of(cls, seg: Segment) -> "OffsetKey":
        return cls(seg.seg_id, seg.rev, seg.digest)


class ArtifactRegistry:
    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: dict[str, list[float]] = {}
        self._offsets: dict[OffsetKey, list[Span]] = {}
        self._token_counts: dict[str, int] = {}
        self._holders: dict[str, set[str]] = defaultdict(set)

    def embedding_for(self, seg: Segment) -> list[float]:
        vec = self._vectors.get(seg.seg_id)
        if vec is None:
            vec = self._embedder.embed(seg.body)
            self._vectors[seg.seg_id] = vec
        return vec

    def sentence_offsets(self, seg: Segment) -> list[Span]:
        key = OffsetKey.of(seg)
        cached = self._offsets.get(key)
        if cached is None:
            cached = [(m.start(), m.end()) for m in _SENTENCE.finditer(seg.body) if m.group().strip()]
            self._offsets[key] = cached
        return cached

    def warm_token_counts(self, segments: Iterable[Segment]) -> None:
        self._token_counts.update({s.seg_id: s.token_estimate() for s in segments})

    def token_count(self, seg: Segment) -> int:
        return self._token_counts.get(seg.seg_id) or seg.token_estimate()

    def hold(self, holder: str, seg_id: str) -> None:
        self._holders[seg_id].add(holder)

    def is_held(self, seg_id: str) -> bool:
        return bool(self._holders.get(seg_id))

    def holders(self) -> Mapping[str, set[str]]:
        return MappingProxyType(self._holders)
