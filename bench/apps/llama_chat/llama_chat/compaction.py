"""Keep the session transcript and the engine memory inside the token budget."""

import time
from dataclasses import dataclass
from typing import Callable, Iterable, List, Optional

from llama_index.core.llms import MessageRole
from llama_index.core.memory import Memory
from llama_index.core.utils import get_tokenizer

from .decision_log import DecisionLog
from .transcript import Transcript

Tokenizer = Callable[[str], list]
HolderCheck = Callable[[str], bool]
_PROTECTED_TAIL = 4


@dataclass
class TrimPlan:
    drop: List[str]
    reason: str
    tokens_freed: int


def plan_trim(transcript: Transcript, budget: int, tokenize: Optional[Tokenizer] = None) -> TrimPlan:
    tokenize = tokenize or get_tokenizer()
    spans = [s for s in transcript if s.role != MessageRole.SYSTEM]
    sizes = [len(tokenize(s.text)) for s in spans]
    over = sum(sizes) - budget
    drop: List[str] = []
    freed = 0
    for span, size in zip(spans[:-_PROTECTED_TAIL], sizes):
        if freed >= over:
            break
        drop.append(span.span_id)
        freed += size
    return TrimPlan(drop=drop, reason=f"over budget by {over} tokens", tokens_freed=freed)


def apply_trim(transcript: Transcript, log: DecisionLog, plan: TrimPlan) -> int:
    if not plan.drop:
        return 0
    log.record("trim", plan.drop, f"{plan.reason}; frees {plan.tokens_freed} tokens")
    for sid in plan.drop:
        transcript.drop(sid)
    return len(plan.drop)


async def shrink_memory(memory: Memory, log: DecisionLog, keep_last: int) -> int:
    history = await memory.aget_all()
    if len(history) <= keep_last:
        return 0
    removed = history[:-keep_last]
    await memory.aset(history[-keep_last:])
    ids = [m.additional_kwargs.get("turn_id", "?") for m in removed]
    log.record("shrink_memory", ids, f"kept the last {keep_last} messages")
    return len(removed)


def sweep_expired(transcript: Transcript, grace_s: float, now: Optional[float] = None) -> List[str]:
    now = now or time.time()
    expired = [sid for sid, t in transcript.tombstones.items() if now - t.buried_at > grace_s]
    for sid in expired:
        transcript.tombstones.pop(sid, None)
        transcript.drop(sid)
    return expired


def collect(transcript: Transcript, log: DecisionLog, holders: Iterable[HolderCheck]) -> List[str]:
    checks = list(holders)
    freed: List[str] = []
    for sid, stone in list(transcript.tombstones.items()):
        if any(check(sid) for check in checks):
            continue
        log.record("gc", [sid], f"tombstone ({stone.reason}) has no live holders")
        transcript.tombstones.pop(sid)
        transcript.drop(sid)
        freed.append(sid)
    return freed
