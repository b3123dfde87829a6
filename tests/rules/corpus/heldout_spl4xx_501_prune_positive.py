# rules: SPL401
"""Held-out: pruning passes that remove spans before (or without) recording why."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field


@dataclass
class Span:
    id: str
    content: str
    version: int = 0
    tokens: int = 0
    pinned: bool = False


@dataclass
class Context:
    spans: list[Span] = field(default_factory=list)
    decision_log: list[dict] = field(default_factory=list)


def drop_oldest(ctx: Context) -> None:
    del ctx.spans[0]  # expect: SPL401


def trim_to_budget(ctx: Context, budget: int) -> None:
    while sum(s.tokens for s in ctx.spans) > budget:
        ctx.spans.pop(0)  # expect: SPL401


def drop_unpinned(ctx: Context) -> None:
    for span in list(ctx.spans):
        if not span.pinned:
            ctx.spans.remove(span)  # expect: SPL401


def wipe_window(ctx: Context) -> None:
    del ctx.spans[:]  # expect: SPL401


def filter_in_place(ctx: Context, drop: set[str]) -> None:
    ctx.spans[:] = [s for s in ctx.spans if s.id not in drop]  # expect: SPL401


def filter_write_back(ctx: Context, drop: set[str]) -> None:
    spans = [s for s in ctx.spans if s.id not in drop]
    ctx.spans = spans  # expect: SPL401


def tombstone(span: Span) -> None:
    span.content = "[pruned]"  # expect: SPL401


def prune_then_record(ctx: Context, index: int) -> None:
    victim = ctx.spans.pop(index)  # expect: SPL401
    ctx.decision_log.append({"op": "prune", "span": victim.id, "reason": "budget"})


def prune_recorded_on_one_branch(ctx: Context, index: int, verbose: bool) -> None:
    if verbose:
        ctx.decision_log.append({"op": "prune", "index": index})
    del ctx.spans[index]  # expect: SPL401


def prune_two_spans(ctx: Context) -> None:
    ctx.spans.pop()  # expect: SPL401
    ctx.spans.pop()


async def async_compaction(ctx: Context, keep: int) -> None:
    while len(ctx.spans) > keep:
        ctx.spans.pop(0)  # expect: SPL401


class ChatMemory:
    def __init__(self) -> None:
        self.messages: list[dict] = []
        self.audit_log: list[dict] = []

    def trim(self, max_messages: int) -> None:
        while len(self.messages) > max_messages:
            self.messages.pop(0)  # expect: SPL401

    def forget(self, message: dict) -> None:
        self.messages.remove(message)  # expect: SPL401

    def forget_after_finally(self, index: int) -> None:
        try:
            del self.messages[index]  # expect: SPL401
        finally:
            self.audit_log.append({"op": "forget", "index": index})


class Buffer:
    def __init__(self) -> None:
        self.chunks: list[Span] = []
        self.journal: list[str] = []

    def evict(self, chunk_id: str) -> None:
        for i, chunk in enumerate(self.chunks):
            if chunk.id == chunk_id:
                del self.chunks[i]  # expect: SPL401
                return

    def evict_by_match(self, command: tuple[str, int]) -> None:
        match command:
            case ("drop", idx):
                self.chunks.pop(idx)  # expect: SPL401
            case _:
                pass

    def evict_walrus(self, pick) -> None:
        if (victim := pick(self.chunks)) is not None:
            self.chunks.remove(victim)  # expect: SPL401

    def evict_elif(self, mode: str, index: int) -> None:
        if mode == "log":
            self.journal.append(f"evict {index}")
        elif mode == "drop":
            self.chunks.pop(index)  # expect: SPL401

    def evict_early_return(self) -> None:
        if not self.chunks:
            return
        self.chunks.pop()  # expect: SPL401


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


@logged
def decorated_prune(ctx: Context) -> None:
    ctx.spans.pop(0)  # expect: SPL401


class SimilarityPostprocessor:
    """LlamaIndex-style: blank out low-score nodes in place."""

    def postprocess_nodes(self, nodes, cutoff: float):
        for n in nodes:
            if n.score < cutoff:
                n.node.text = "[removed]"  # expect: SPL401
        return nodes


class Conversation:
    def __init__(self) -> None:
        self.turns: list[dict] = []

    def drop_turn(self, turn: dict) -> None:
        turn["content"] = "<tombstone>"  # expect: SPL401

    def forget_turns(self, keep: int) -> None:
        self.turns = [t for t in self.turns if t.get("pinned")]  # expect: SPL401


def redact_segments(segments: list[Span], banned: set[str]) -> None:
    for segment in segments:
        if segment.id in banned:
            segment.content = "[removed]"  # expect: SPL401


def drop_low_relevance(state: dict, threshold: float) -> None:
    for message in list(state["messages"]):
        if message.get("score", 1.0) < threshold:
            state["messages"].remove(message)  # expect: SPL401


class PassageStore:
    def __init__(self) -> None:
        self.passages: list[Span] = []
        self.ledger: list[dict] = []

    def prune(self, keep_ids: set[str]) -> None:
        kept = [p for p in self.passages if p.id in keep_ids]
        self.passages = kept  # expect: SPL401
        self.ledger.append({"op": "prune", "kept": sorted(keep_ids)})

    def truncate(self, limit: int) -> None:
        del self.passages[limit:]  # expect: SPL401


class MessageBuffer:
    def __init__(self, limit: int) -> None:
        self.buffer: list = []
        self.limit = limit

    def add(self, message) -> None:
        self.buffer.append(message)
        if len(self.buffer) > self.limit:
            self.buffer.pop(0)  # expect: SPL401
