"""Summarisation operators."""
import uuid
from typing import Iterable, Sequence

from .audit import AuditTrail
from .models import Completer, Origin, Segment
from .window import ContextWindow

ROLLING_ID = "summary:rolling"

ROLLING_PROMPT = "Running summary so far:\n{previous}\n\nNew turns:\n{turns}\n\nUpdate the summary (<200 words)."
SOURCE_PROMPT = "Summarise these segments; keep ticket numbers and commitments.\n\n{sources}"


def _join(segments: Iterable[Segment]) -> str:
    return "\n\n".join(f"<{s.seg_id}>\n{s.body}" for s in segments)


class Summarizer:
    def __init__(self, window: ContextWindow, llm: Completer, trail: AuditTrail) -> None:
        self.window = window
        self.llm = llm
        self.trail = trail

    async def roll(self, new_turns: Sequence[Segment]) -> Segment:
        """Fold new turns into the rolling summary segment."""
        prev = self.window.get(ROLLING_ID)
        basis = prev.body if prev is not None else "(none)"
        text = await self.llm.complete(ROLLING_PROMPT.format(previous=basis, turns=_join(new_turns)))
        if prev is None:
            return self.window.add(Segment(seg_id=ROLLING_ID, body=text, origin=Origin.SUMMARY, pinned=True))
        return self.window.replace(ROLLING_ID, text, origin=Origin.SUMMARY)

    async def digest_sources(self, seg_ids: Sequence[str]) -> Segment:
        sources = [
            seg
            for seg in (self.window.get(i) for i in seg_ids)
            if seg is not None and seg.origin is not Origin.SUMMARY
        ]
        if not sources:
            raise ValueError("nothing to summarise")
        text = await self.llm.complete(SOURCE_PROMPT.format(sources=_join(sources)))
        lineage = [s.seg_id for s in sources]
        return self.window.add(
            Segment(seg_id=f"summary:{uuid.uuid4().hex[:8]}", body=text, origin=Origin.SUMMARY, derived_from=lineage)
        )

    async def rollup(self, summary_ids: Sequence[str]) -> Segment:
        """Merge several summaries into one, keeping the chain back to the sources."""
        parts = [self.window.view(i) for i in summary_ids]
        roots = sorted({root for p in parts for root in (p.derived_from or [p.seg_id])})
        text = await self.llm.complete(SOURCE_PROMPT.format(sources=_join(parts)))
        merged = Segment(seg_id=f"summary:{uuid.uuid4().hex[:8]}", body=text, origin=Origin.SUMMARY)
        merged.derived_from = roots
        self.trail.record(
            "rollup",
            [p.seg_id for p in parts],
            f"merged {len(parts)} summaries covering {len(roots)} sources",
            {p.seg_id: p.digest for p in parts},
        )
        return self.window.add(merged)
