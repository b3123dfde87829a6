from typing import List

from .decision_log import DecisionLog
from .models import Decision, Span
from .store import SpanStore


def prune_flagged(store: SpanStore, log: DecisionLog) -> None:
    flagged = [s for s in store.live() if "[prune]" in s.content]
    for s in flagged:
        store.remove(s.span_id)
        log.append(Decision("prune", [s.span_id], s.content))


def prune_off_topic(store: SpanStore, log: DecisionLog, ids: List[str], reason: str) -> None:
    log.append(Decision("prune", list(ids), reason))
    for sid in ids:
        span = store.get(sid)
        if span is not None:
            span.tombstoned = True


def drop_stale(spans: List[Span], keep: int) -> List[Span]:
    return spans[-keep:]
