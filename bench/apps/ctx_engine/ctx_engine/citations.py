"""Citations and anchors into segments, and how we turn them back into quotes."""
import uuid

from pydantic import BaseModel, Field
from pydantic.dataclasses import dataclass as pyd_dataclass

from .models import Segment
from .window import ContextWindow


class StaleAnchor(LookupError):
    pass


class Citation(BaseModel):
    """What the answer renderer attaches to a sentence of the reply."""

    cite_id: str = Field(default_factory=lambda: uuid.uuid4().hex[:12])
    seg_id: str
    start: int
    end: int
    label: str = ""


@pyd_dataclass(frozen=True)
class Anchor:
    seg_id: str
    rev: int
    digest: str
    start: int
    end: int


def cite(seg: Segment, start: int, end: int, label: str = "") -> Citation:
    return Citation(seg_id=seg.seg_id, start=start, end=end, label=label or seg.origin.value)


def anchor(seg: Segment, start: int, end: int) -> Anchor:
    if not 0 <= start <= end <= len(seg.body):
        raise ValueError(f"bad range {start}:{end} for {seg.seg_id}")
    return Anchor(seg.seg_id, seg.rev, seg.digest, start, end)


def quote(window: ContextWindow, c: Citation) -> str:
    seg = window.get(c.seg_id)
    if seg is None:
        return ""
    return seg.body[c.start : c.end]


def resolve(window: ContextWindow, a: Anchor) -> str:
    seg = window.get(a.seg_id)
    if seg is None:
        raise StaleAnchor(f"{a.seg_id} is gone")
    if seg.rev != a.rev or seg.digest != a.digest:
        raise StaleAnchor(f"{a.seg_id} changed since anchoring (rev {a.rev} -> {seg.rev})")
    if a.end > len(seg.body):
        raise StaleAnchor(f"{a.seg_id}: range {a.start}:{a.end} past end")
    return seg.body[a.start : a.end]

