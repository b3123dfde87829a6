# rules: SPL403
"""Held-out: tombstoned spans collected by age, without asking whether anything still holds them."""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

TOMBSTONE_TTL = 3600.0
MAX_AGE = timedelta(days=1)


@dataclass
class Span:
    id: str
    content: str
    version: int = 0
    tombstoned: bool = False
    deleted: bool = False
    deleted_at: float = 0.0
    created_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    pruned_turn: int = 0
    ttl: float = 60.0


class Store:
    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.by_id: dict[str, Span] = {}
        self.turn = 0

    def gc(self) -> None:
        now = time.time()
        for span in list(self.spans):
            if span.tombstoned and now - span.deleted_at > TOMBSTONE_TTL:
                self.spans.remove(span)  # expect: SPL403

    def gc_comprehension(self) -> None:
        cutoff = time.time() - TOMBSTONE_TTL
        self.spans = [s for s in self.spans if not (s.tombstoned and s.deleted_at < cutoff)]  # expect: SPL403

    def gc_index(self) -> None:
        now = datetime.now(timezone.utc)
        for span_id, span in list(self.by_id.items()):
            if span.deleted and now - span.created_at > MAX_AGE:
                del self.by_id[span_id]  # expect: SPL403

    def gc_by_turns(self, max_turns: int = 5) -> None:
        for i in reversed(range(len(self.spans))):
            span = self.spans[i]
            if span.content == "[pruned]" and self.turn - span.pruned_turn > max_turns:
                self.spans.pop(i)  # expect: SPL403

    def gc_monotonic(self) -> None:
        now = time.monotonic()
        for span in list(self.spans):
            if span.tombstoned and now - span.deleted_at >= span.ttl:
                self.spans.remove(span)  # expect: SPL403

    def gc_dict_comprehension(self) -> None:
        now = time.time()
        self.by_id = {k: s for k, s in self.by_id.items() if not (s.deleted and now - s.deleted_at > s.ttl)}  # expect: SPL403

    def gc_index_loop(self) -> None:
        i = 0
        while i < len(self.spans):
            span = self.spans[i]
            if span.content == "<tombstone>" and time.time() - span.deleted_at > TOMBSTONE_TTL:
                del self.spans[i]  # expect: SPL403
            else:
                i += 1

    def gc_removed_marker(self, max_age: float) -> None:
        for span in list(self.spans):
            age = time.time() - span.deleted_at
            if span.content == "[removed]" and age > max_age:
                self.spans.remove(span)  # expect: SPL403

    def gc_early_continue(self) -> None:
        for span in list(self.spans):
            if not span.tombstoned:
                continue
            if time.time() - span.deleted_at < TOMBSTONE_TTL:
                continue
            self.spans.remove(span)  # expect: SPL403

    def gc_walrus(self) -> None:
        for span in list(self.spans):
            if span.tombstoned and (age := time.time() - span.deleted_at) > TOMBSTONE_TTL:
                self.spans.remove(span)  # expect: SPL403

    def gc_pop_id(self) -> None:
        for span_id in [k for k, s in self.by_id.items() if s.tombstoned and time.time() - s.deleted_at > s.ttl]:
            self.by_id.pop(span_id)  # expect: SPL403


class MemoryBlocks:
    """Letta-style archival memory with soft-deleted blocks."""

    def __init__(self) -> None:
        self.blocks: dict[str, dict] = {}

    def vacuum(self, ttl_seconds: int) -> None:
        now = datetime.now()
        for block_id in list(self.blocks):
            block = self.blocks[block_id]
            if block.get("deleted") and (now - block["created_at"]).total_seconds() > ttl_seconds:
                del self.blocks[block_id]  # expect: SPL403

    def vacuum_pop(self, ttl_seconds: int) -> None:
        now = time.time()
        for block_id, block in list(self.blocks.items()):
            if block["tombstoned"] and now - block["deleted_at"] > ttl_seconds:
                self.blocks.pop(block_id, None)  # expect: SPL403


async def background_gc(store: Store) -> None:
    while True:
        now = time.time()
        for span in list(store.spans):
            if span.tombstoned and now - span.deleted_at > TOMBSTONE_TTL:
                store.spans.remove(span)  # expect: SPL403
        await asyncio.sleep(60)


def collect_tombstones(spans: list[Span], turn: int, keep_turns: int) -> None:
    for span in list(spans):
        if span.deleted and turn - span.pruned_turn > keep_turns:
            spans.remove(span)  # expect: SPL403


def collect_by_age(chunks: list[Span], max_age: float) -> None:
    now = time.time()
    chunks[:] = [c for c in chunks if not (c.tombstoned and now - c.deleted_at > max_age)]  # expect: SPL403


class NodeIndex:
    """LlamaIndex-style docstore with tombstoned nodes."""

    def __init__(self) -> None:
        self.nodes: dict[str, Span] = {}

    def purge_deleted(self) -> None:
        expired = []
        for node_id, node in self.nodes.items():
            if node.deleted and datetime.now(timezone.utc) - node.created_at > MAX_AGE:
                expired.append(node_id)
        for node_id in expired:
            del self.nodes[node_id]  # expect: SPL403


class Messages:
    def __init__(self) -> None:
        self.messages: list[dict] = []
        self.turn_counter = 0

    def gc(self) -> None:
        for msg in list(self.messages):
            if msg["content"] == "[pruned]" and self.turn_counter - msg["turn"] > 10:
                self.messages.remove(msg)  # expect: SPL403

    def gc_try(self) -> None:
        try:
            for msg in list(self.messages):
                if msg.get("tombstoned") and time.time() - msg["ts"] > TOMBSTONE_TTL:
                    self.messages.remove(msg)  # expect: SPL403
        finally:
            self.turn_counter += 1

    def gc_match(self) -> None:
        for msg in list(self.messages):
            match msg:
                case {"deleted": True, "deleted_at": ts} if time.time() - ts > TOMBSTONE_TTL:
                    self.messages.remove(msg)  # expect: SPL403
                case _:
                    pass


def gc_entries(entries: dict[str, Span]) -> None:
    now = time.time()
    for key in list(entries):
        entry = entries[key]
        if entry.tombstoned and now > entry.deleted_at + entry.ttl:
            del entries[key]  # expect: SPL403


def gc_segments(segments: list[Span], max_age: float) -> None:
    now = time.monotonic()
    for segment in list(segments):
        if segment.deleted and now - segment.deleted_at > max_age:
            segments.remove(segment)  # expect: SPL403


def gc_passages(store: Store) -> None:
    for span in list(store.spans):
        if span.tombstoned and span.created_at < datetime.now(timezone.utc) - MAX_AGE:
            store.spans.remove(span)  # expect: SPL403


class ContextWindow:
    def __init__(self) -> None:
        self.chunks: list[Span] = []
        self.current_turn = 0

    def sweep_reverse(self) -> None:
        for idx in range(len(self.chunks) - 1, -1, -1):
            chunk = self.chunks[idx]
            if chunk.deleted and time.time() - chunk.deleted_at > chunk.ttl:
                del self.chunks[idx]  # expect: SPL403


def expire_pruned_entries(ctx: dict, now: float, keep_seconds: float) -> None:
    for entry in list(ctx["entries"]):
        if entry["content"] != "[pruned]":
            continue
        if now - entry["pruned_at"] <= keep_seconds:
            continue
        ctx["entries"].remove(entry)  # expect: SPL403
