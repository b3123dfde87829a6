"""Async service layer used by the HTTP gateway."""
import asyncio
from typing import Awaitable, Callable, Literal

from pydantic import BaseModel, Field

from .citations import Anchor, anchor
from .models import Origin, Segment
from .normalize import normalize_text
from .registry import ArtifactRegistry
from .settings import EngineSettings
from .window import ContextWindow


class IngestRequest(BaseModel):
    id: str
    content: str
    kind: Literal["user", "tool", "agent"] = "user"


class IngestResponse(BaseModel):
    id: str
    content: str
    tokens: int
    warnings: list[str] = Field(default_factory=list)


class Job(BaseModel):
    id: str
    op: Literal["compress", "summarize", "gc"]
    attempts: int = 0


Handler = Callable[[Job], Awaitable[None]]


class ContextService:
    def __init__(self, window: ContextWindow, registry: ArtifactRegistry, settings: EngineSettings) -> None:
        self.window = window
        self.registry = registry
        self.settings = settings
        self._jobs: asyncio.Queue[Job] = asyncio.Queue()

    async def ingest(self, req: IngestRequest) -> IngestResponse:
        origin = Origin.TOOL if req.kind == "tool" else Origin.INGEST
        seg = self.window.add(Segment(seg_id=req.id, body=normalize_text(req.content), origin=origin))
        resp = IngestResponse(id=req.id, content=seg.body, tokens=seg.token_estimate())
        if len(resp.content) > self.settings.preview_chars:
            resp.content = resp.content[: self.settings.preview_chars] + "\u2026"
            resp.warnings.append("preview truncated")
        if self.window.used_tokens() > self.window.budget_tokens:
            await self._jobs.put(Job(id=f"gc-{req.id}", op="gc"))
        return resp

    async def pin_quote(self, seg_id: str, start: int, end: int, holder: str) -> Anchor:
        a = anchor(self.window.view(seg_id), start, end)
        self.registry.hold(holder, seg_id)
        return a

    async def highlight(self, a: Anchor, pad: int = 40) -> dict[str, str]:
        """The anchored range plus some surrounding text, for the UI."""
        seg = self.window.get(a.seg_id)
        if seg is None or not seg.live:
            raise KeyError(a.seg_id)
        lo, hi = a.start, a.end
        return {
            "before": seg.body[max(0, lo - pad) : lo],
            "match": seg.body[lo:hi],
            "after": seg.body[hi : hi + pad],
        }

    async def drain(self, handlers: dict[str, Handler]) -> int:
        done = 0
        while not self._jobs.empty():
            job = self._jobs.get_nowait()
            try:
                await handlers[job.op](job)
                done += 1
            except Exception:
                job.attempts += 1
                if job.attempts < 3:
                    self._jobs.put_nowait(job)
            finally:
                self._jobs.task_done()
        return done
