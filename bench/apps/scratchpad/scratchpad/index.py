"""Derived artifacts: embeddings, token offsets, excerpts."""

from __future__ import annotations

from typing import Callable, Optional

from scratchpad.models import ExcerptRef, Quote, Segment

Embed = Callable[[str], list[float]]


def token_offsets(text: str) -> list[tuple[int, int]]:
    out, pos = [], 0
    for tok in text.split():
        start = text.index(tok, pos)
        out.append((start, start + len(tok)))
        pos = start + len(tok)
    return out


class OffsetIndex:
    def __init__(self) -> None:
        self._offsets: dict[str, list[tuple[int, int]]] = {}

    def build(self, seg: Segment) -> None:
        self._offsets[seg.seg_id] = token_offsets(seg.body)

    def token(self, seg: Segment, i: int) -> str:
        start, end = self._offsets[seg.seg_id][i]
        return seg.body[start:end]


class EmbeddingIndex:
    def __init__(self, embed: Embed) -> None:
        self.embed = embed
        self._vectors: dict[tuple[str, int, str], list[float]] = {}

    def vector(self, seg: Segment) -> list[float]:
        key = (seg.seg_id, seg.rev, seg.digest)
        if key not in self._vectors:
            self._vectors[key] = self.embed(seg.body)
        return self._vectors[key]


class ExcerptIndex:
    def __init__(self) -> None:
        self._refs: dict[str, list[ExcerptRef]] = {}

    def cite(self, seg: Segment, start: int, end: int) -> ExcerptRef:
        ref = ExcerptRef(seg.seg_id, seg.rev, seg.digest, start, end)
        self._refs.setdefault(seg.seg_id, []).append(ref)
        return ref

    def holders(self, seg_id: str) -> list[ExcerptRef]:
        return self._refs.get(seg_id, [])

    def resolve(self, ref: ExcerptRef, seg: Optional[Segment]) -> Optional[str]:
        if seg is None:
            return None
        if seg.rev != ref.rev or seg.digest != ref.digest:
            return None
        return seg.body[ref.start : ref.end]


def quote(seg: Segment, start: int, end: int) -> Quote:
    return Quote(seg.seg_id, start, end, label=seg.kind)


def render_quote(q: Quote, seg: Segment) -> str:
    return f"> {seg.body[q.start:q.end]}"


class VectorCache:
    """Embeddings of segments, remembered between turns."""

    def __init__(self, embed: Embed) -> None:
        self.embed = embed
        self.store = {}

    def get(self, seg):
        vec = self.store.get(seg.seg_id)
        if vec is None:
            vec = self.embed(seg.body)
            self.store[seg.seg_id] = vec
        return vec
