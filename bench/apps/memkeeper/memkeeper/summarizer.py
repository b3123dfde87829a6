from __future__ import annotations

from typing import Awaitable, Callable, Sequence

from .records import MemoryRecord
from .store import MemoryStore

Summarize = Callable[[str], Awaitable[str]]


async def rolling_summary(store: MemoryStore, summary_id: str, new: Sequence[MemoryRecord],
                          summarize: Summarize) -> MemoryRecord:
    current = store.get(summary_id)
    assert current is not None
    blob = current["text"] + "\n" + "\n".join(m["text"] for m in new)
    return store.rewrite(summary_id, await summarize(blob))


async def summary_from_sources(store: MemoryStore, source_ids: list[str],
                               summarize: Summarize) -> MemoryRecord:
    sources = [store.get(s) for s in source_ids]
    texts = [s["text"] for s in sources if s is not None]
    text = await summarize("\n".join(texts))
    return store.add(text, source_ids=source_ids)


async def condense(store: MemoryStore, summary: MemoryRecord, summarize: Summarize) -> MemoryRecord:
    """Shorten an existing summary, keeping the chain back to its sources."""
    roots = summary.get("source_ids") or [summary["id"]]
    shorter = await summarize(summary["text"])
    return store.add(shorter, source_ids=roots)
