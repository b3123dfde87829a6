"""LLM-backed compression of long segments."""
import logging

from .audit import AuditTrail
from .models import Completer, Origin, Segment, fingerprint
from .window import ContextWindow

log = logging.getLogger(__name__)

COMPRESS_PROMPT = """Shorten the text below to about {target} words.
Keep identifiers, numbers and quoted error messages verbatim.

{body}"""


class Compressor:
    def __init__(self, window: ContextWindow, llm: Completer, trail: AuditTrail) -> None:
        self.window = window
        self.llm = llm
        self.trail = trail

    async def _shorten(self, seg: Segment, ratio: float) -> str:
        target = max(20, int(len(seg.body.split()) * ratio))
        try:
            return await self.llm.complete(COMPRESS_PROMPT.format(target=target, body=seg.body))
        except Exception:  # gateway hiccup: leave the segment alone
            log.warning("compression failed for %s", seg.seg_id, exc_info=True)
            return seg.body

    async def compress(self, seg_id: str, ratio: float = 0.4) -> Segment:
        seg = self.window.view(seg_id)
        short = await self._shorten(seg, ratio)
        if short == seg.body:
            return seg
        seg.body = short
        seg.rev += 1
        seg.digest = fingerprint(short)
        seg.origin = Origin.COMPRESSED
        return seg

    async def compress_forked(self, seg_id: str, ratio: float = 0.4) -> Segment:
        """Like compress(), but for segments that other stages have indexed."""
        seg = self.window.view(seg_id)
        short = await self._shorten(seg, ratio)
        if short == seg.body:
            return seg
        new = self.window.fork(seg_id, short, Origin.COMPRESSED)
        self.trail.record("compress", [seg_id, new.seg_id], f"compressed to ratio {ratio}", {seg_id: seg.digest})
        return new


def truncate_tail(seg: Segment, max_chars: int) -> Segment:
    if len(seg.body) <= max_chars:
        return seg
    seg.body = seg.body[: max_chars - 1].rstrip() + "\u2026"
    seg.rev += 1
    seg.digest = fingerprint(seg.body)
    seg.embedding = None
    return seg
