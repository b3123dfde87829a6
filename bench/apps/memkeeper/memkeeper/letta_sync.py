from __future__ import annotations

import logging
from dataclasses import dataclass, field

from letta_client import AsyncLetta
from letta_client.types import BlockResponse, Passage

from .hashing import digest_of

log = logging.getLogger(__name__)


@dataclass
class BlockMirror:
    """Local copy of an agent's core memory blocks, keyed by block id."""

    values: dict[str, str] = field(default_factory=dict)
    rendered: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class PassageCopy:
    id: str
    text: str
    version: int = 1
    digest: str = ""
    embedding: list[float] | None = None
    char_spans: list[tuple[int, int]] = field(default_factory=list)


class LettaMemorySync:
    def __init__(self, client: AsyncLetta, agent_id: str) -> None:
        self.client = client
        self.agent_id = agent_id
        self.mirror = BlockMirror()
        self.passages: dict[str, PassageCopy] = {}

    async def pull_blocks(self) -> list[BlockResponse]:
        blocks = []
        async for block in self.client.agents.blocks.list(agent_id=self.agent_id):
            blocks.append(block)
            lines = block.value.splitlines()
            bid = block.id
            if bid not in self.mirror.rendered:
                self.mirror.rendered[bid] = lines
            self.mirror.values[bid] = block.value
        return blocks

    async def rewrite_block(self, label: str, new_value: str) -> BlockResponse:
        updated = await self.client.agents.blocks.update(
            label, agent_id=self.agent_id, value=new_value
        )
        self.mirror.values[updated.id] = updated.value
        self.mirror.rendered[updated.id] = updated.value.splitlines()
        return updated

    async def pull_passages(self) -> None:
        page = await self.client.agents.passages.list(agent_id=self.agent_id, limit=200)
        for p in page:
            self._remember(p)

    def _remember(self, p: Passage) -> None:
        if p.id is None:
            return
        self.passages[p.id] = PassageCopy(id=p.id, text=p.text, digest=digest_of(p.text),
                                          embedding=p.embedding)

    def scrub_passage(self, passage_id: str, scrubbed: str) -> PassageCopy:
        cp = self.passages[passage_id]
        cp.text = scrubbed
        cp.version += 1
        cp.digest = digest_of(scrubbed)
        return cp

    def retitle_passage(self, passage_id: str, text: str) -> PassageCopy:
        cp = self.passages[passage_id]
        cp.text = text
        cp.version += 1
        cp.digest = digest_of(text)
        cp.embedding = None
        cp.char_spans = []
        return cp

    async def replace_passage(self, passage_id: str, new_text: str) -> str:
        """Archival passages are immutable upstream: insert the new one, then delete the old."""
        created = await self.client.agents.passages.create(self.agent_id, text=new_text)
        new_id = created[0].id if isinstance(created, list) and created else None
        try:
            await self.client.agents.passages.delete(passage_id, agent_id=self.agent_id)
        except Exception:
            log.warning("could not delete old passage %s", passage_id)
        self.passages.pop(passage_id, None)
        return new_id or ""

    async def recall(self, query: str, top_k: int = 5) -> list[str]:
        res = await self.client.agents.passages.search(self.agent_id, query=query, top_k=top_k)
        return [str(r) for r in getattr(res, "results", []) or []]
