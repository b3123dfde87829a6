from __future__ import annotations

import re
from typing import Callable, Iterable, Sequence

from letta.schemas.embedding_config import EmbeddingConfig
from letta.schemas.passage import Passage
from letta_client import Letta

from .decision_log import DecisionLog
from .spans import MemorySpan, digest

Embedder = Callable[[str], list[float]]
_TICKET = re.compile(r"\b(?:INC|SEC)-\d{4,}\b")


class ArchivalMirror:
    """In-process copy of an agent's archival passages used for offline maintenance."""

    def __init__(self, passages: Iterable[Passage], embed: Embedder, embedding_config: EmbeddingConfig) -> None:
        self.by_id: dict[str, Passage] = {p.id: p for p in passages}
        self.embed = embed
        self.embedding_config = embedding_config

    def scrub_ticket_refs(self, passage_ids: Sequence[str]) -> list[str]:
        changed = []
        for pid in passage_ids:
            p = self.by_id[pid]
            cleaned = _TICKET.sub("[ticket]", p.text)
            if cleaned != p.text:
                p.text = cleaned
                p.tags = sorted({*(p.tags or []), "scrubbed"})
                changed.append(pid)
        return changed

    def supersede(self, old_id: str, new_text: str, reason: str) -> Passage:
        old = self.by_id[old_id]
        fresh = Passage(
            text=new_text,
            embedding=self.embed(new_text),
            embedding_config=self.embedding_config,
            archive_id=old.archive_id,
            organization_id=old.organization_id,
            tags=[t for t in (old.tags or []) if t != "tombstone"],
            metadata={**(old.metadata or {}), "supersedes": old_id, "reason": reason, "text_hash": digest(new_text)},
        )
        old.tags = sorted({*(old.tags or []), "tombstone", f"superseded-by:{fresh.id}"})
        self.by_id[fresh.id] = fresh
        return fresh


def reembed_span(span: MemorySpan, new_text: str, embed: Embedder, op: str) -> MemorySpan:
    span.content = new_text
    span.version += 1
    span.content_hash = digest(new_text)
    span.embedding = embed(new_text)
    span.produced_by = f"rewrite:{op}"
    return span


def _superseded(client: Letta, agent_id: str) -> list:
    page = client.agents.passages.list(agent_id, search="superseded", limit=200)
    return [p for p in page if any(t.startswith("superseded-by:") for t in (p.tags or []))]


def drop_superseded_passages(client: Letta, agent_id: str, log: DecisionLog) -> int:
    n = 0
    for p in _superseded(client, agent_id):
        client.agents.passages.delete(p.id, agent_id=agent_id)
        successor = next(t.split(":", 1)[1] for t in p.tags if t.startswith("superseded-by:"))
        log.record("archival.delete", [p.id], f"superseded by {successor}", evidence=p.text)
        n += 1
    return n


def drop_superseded_passages_logged(client: Letta, agent_id: str, log: DecisionLog) -> int:
    victims = _superseded(client, agent_id)
    for p in victims:
        successor = next(t.split(":", 1)[1] for t in p.tags if t.startswith("superseded-by:"))
        log.record("archival.delete", [p.id], f"superseded by {successor}", evidence=p.text)
    for p in victims:
        client.agents.passages.delete(p.id, agent_id=agent_id)
    return len(victims)
