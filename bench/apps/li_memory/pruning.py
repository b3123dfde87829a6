from llama_index.core.memory import Memory

from .decisions import Decision, DecisionLog
from .store import SpanStore


def prune_stale(store: SpanStore, log: DecisionLog, ids: list[str], reason: str) -> None:
    for sid in ids:
        store.delete(sid)
        log.append(Decision("prune", sid, reason))


def prune_logged(store: SpanStore, log: DecisionLog, ids: list[str], reason: str) -> None:
    for sid in ids:
        log.append(Decision("prune", sid, reason))
        store.delete(sid)


async def compact_memory(memory: Memory, log: DecisionLog, keep: int) -> None:
    history = await memory.aget_all()
    dropped = history[:-keep]
    await memory.aset(history[-keep:])
    for m in dropped:
        log.append(Decision("compact", str(m.additional_kwargs.get("span_id")), "over budget"))
