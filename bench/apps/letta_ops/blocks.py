from __future__ import annotations

import re
from typing import Callable, Iterable

from letta_client import Letta
from letta_client.types import BlockResponse

from .spans import MemorySpan, digest

SECRET_PATTERNS = [
    re.compile(r"(?i)(api[_-]?key|token|password)\s*[:=]\s*\S+"),
    re.compile(r"\b(?:\d[ -]*?){13,16}\b"),
    re.compile(r"AKIA[0-9A-Z]{16}"),
]


def _scrub(text: str, patterns: Iterable[re.Pattern[str]]) -> str:
    for pat in patterns:
        text = pat.sub("[REDACTED]", text)
    return text


def load_spans(client: Letta, agent_id: str) -> dict[str, MemorySpan]:
    page = client.agents.blocks.list(agent_id, limit=100)
    return {b.id: MemorySpan.from_block(b) for b in page.items}


def push_span(client: Letta, span: MemorySpan) -> BlockResponse:
    return client.blocks.update(
        span.span_id,
        value=span.content,
        metadata={
            "ops_version": span.version,
            "ops_hash": span.content_hash,
            "produced_by": span.produced_by,
        },
    )


class BlockOperators:
    def __init__(self, client: Letta, agent_id: str) -> None:
        self.client = client
        self.agent_id = agent_id

    def redact(self, span: MemorySpan, patterns: Iterable[re.Pattern[str]] = SECRET_PATTERNS) -> MemorySpan:
        scrubbed = _scrub(span.content, patterns)
        if scrubbed == span.content:
            return span
        span.content = scrubbed
        span.content_hash = digest(scrubbed)
        span.produced_by = "rewrite:redact"
        push_span(self.client, span)
        return span

    def normalize(self, span: MemorySpan) -> MemorySpan:
        lines = [ln.rstrip() for ln in span.content.splitlines()]
        collapsed = "\n".join(ln for i, ln in enumerate(lines) if ln or (i and lines[i - 1]))
        if collapsed != span.content:
            span.version += 1
            span.content = collapsed
            span.produced_by = "rewrite:normalize"
            push_span(self.client, span)
        return span

    def rewrite(self, span: MemorySpan, fn: Callable[[str], str], op: str) -> MemorySpan:
        new_text = fn(span.content)
        if new_text == span.content:
            return span
        span.content = new_text
        span.version += 1
        span.content_hash = digest(new_text)
        span.produced_by = f"rewrite:{op}"
        push_span(self.client, span)
        return span


def replace_block(client: Letta, agent_id: str, label: str, new_value: str, op: str) -> BlockResponse:
    """Swap the agent's block under `label` for a fresh block; the old one stays readable."""
    old = client.agents.blocks.retrieve(label, agent_id=agent_id)
    old_meta = dict(old.metadata or {})
    fresh = client.blocks.create(
        label=label,
        value=new_value,
        limit=old.limit or 5000,
        description=old.description,
        metadata={
            "supersedes": old.id,
            "produced_by": f"rewrite:{op}",
            "ops_version": int(old_meta.get("ops_version", 1)) + 1,
            "ops_hash": digest(new_value),
        },
    )
    client.agents.blocks.detach(old.id, agent_id=agent_id)
    client.agents.blocks.attach(fresh.id, agent_id=agent_id)
    client.blocks.update(old.id, tags=[*(old.tags or []), "tombstone", f"superseded-by:{fresh.id}"])
    return fresh
