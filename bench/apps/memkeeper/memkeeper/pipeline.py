from __future__ import annotations

import asyncio

from letta_client import AsyncLetta

from . import gc, operators, pruning
from .decision_log import DecisionLog
from .embeddings import EmbeddingIndex
from .letta_sync import LettaMemorySync
from .store import MemoryStore
from .summarizer import rolling_summary


async def nightly(client: AsyncLetta, agent_id: str, embed, summarize) -> None:
    store = MemoryStore()
    log = DecisionLog()
    sync = LettaMemorySync(client, agent_id)
    await sync.pull_passages()
    for cp in sync.passages.values():
        store.add(cp.text)
    operators.redact_emails(store)
    operators.normalize_whitespace(store)
    index = EmbeddingIndex(embed)
    vectors = await asyncio.gather(*(index.vector_for(m) for m in store.live()))
    scores = {m["id"]: sum(v) / (len(v) or 1) for m, v in zip(store.live(), vectors)}
    pruning.prune_low_value(store, log, scores)
    recent = store.live()[-10:]
    summary = store.add("")
    summary = await rolling_summary(store, summary["id"], recent, summarize)
    gc.sweep_tombstones(store)
