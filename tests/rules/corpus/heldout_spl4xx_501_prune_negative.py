# rules: SPL401
"""Held-out: pruning that records its rationale first, and removals that are not span pruning."""
from __future__ import annotations

import ast
import heapq
import os
import xml.etree.ElementTree as ET
from collections import deque
from dataclasses import dataclass, field


@dataclass
class Span:
    id: str
    content: str
    tokens: int = 0
    pinned: bool = False


@dataclass
class Context:
    spans: list[Span] = field(default_factory=list)
    decision_log: list[dict] = field(default_factory=list)


class DecisionLog:
    def __init__(self) -> None:
        self._entries: list[dict] = []

    def record(self, **entry) -> None:
        self._entries.append(entry)


def drop_oldest(ctx: Context) -> None:
    ctx.decision_log.append({"op": "prune", "span": ctx.spans[0].id, "reason": "oldest"})
    del ctx.spans[0]


def trim_to_budget(ctx: Context, log: DecisionLog, budget: int) -> None:
    while sum(s.tokens for s in ctx.spans) > budget:
        log.record(op="prune", span=ctx.spans[0].id, reason="budget")
        ctx.spans.pop(0)


def drop_unpinned(ctx: Context, audit_log: DecisionLog) -> None:
    for span in list(ctx.spans):
        if not span.pinned:
            audit_log.record(op="drop", span=span.id)
            ctx.spans.remove(span)


def reset_context(ctx: Context, journal) -> None:
    journal.write("reset: clearing %d spans" % len(ctx.spans))
    ctx.spans.clear()


def filter_in_place(ctx: Context, drop: set[str], ledger) -> None:
    ledger.log("filter", sorted(drop))
    ctx.spans[:] = [s for s in ctx.spans if s.id not in drop]


def tombstone(span: Span, provenance) -> None:
    provenance.append({"op": "tombstone", "span": span.id})
    span.content = "[pruned]"


def prune_recorded_on_both_branches(ctx: Context, index: int, verbose: bool) -> None:
    if verbose:
        ctx.decision_log.append({"op": "prune", "index": index, "detail": ctx.spans[index].content})
    else:
        ctx.decision_log.append({"op": "prune", "index": index})
    del ctx.spans[index]


def pure_filter(spans: list[Span], drop: set[str]) -> list[Span]:
    kept = [s for s in spans if s.id not in drop]
    return kept


def pop_from_copy(ctx: Context) -> list[Span]:
    kept = list(ctx.spans)
    kept.pop()
    return kept


def append_only(ctx: Context, span: Span) -> None:
    ctx.spans.append(span)


class ChatMemory:
    def __init__(self) -> None:
        self.messages: list[dict] = []
        self.audit_log = DecisionLog()

    def _note_drop(self, message: dict, reason: str) -> None:
        self.audit_log.record(op="drop", message=message.get("id"), reason=reason)

    def trim(self, max_messages: int) -> None:
        while len(self.messages) > max_messages:
            self._note_drop(self.messages[0], "window")
            self.messages.pop(0)

    def forget(self, message: dict) -> None:
        self.audit_log.record(op="forget", message=message.get("id"))
        try:
            self.messages.remove(message)
        finally:
            pass


class Turns:
    def __init__(self) -> None:
        self.turns: list[dict] = []
        self.decisions: list[dict] = []

    def forget(self, keep: int) -> None:
        self.decisions.append({"op": "forget", "keep": keep})
        self.turns = [t for t in self.turns if t.get("pinned")]


def build_request(**kwargs):
    messages = kwargs.pop("messages", None)
    kwargs.pop("stream", None)
    return messages, kwargs


def strip_validators(headers: dict) -> dict:
    headers.pop("etag", None)
    headers.pop("content-md5", None)
    return headers


def unset_env(name: str) -> None:
    del os.environ[name]


def prune_xml(root: ET.Element) -> None:
    for child in list(root):
        if child.text is None:
            root.remove(child)


class DropDocstrings(ast.NodeTransformer):
    def visit_FunctionDef(self, node: ast.FunctionDef):
        if node.body and isinstance(node.body[0], ast.Expr):
            node.body.pop(0)
        return node


class Graph:
    def __init__(self) -> None:
        self.nodes: dict[str, set[str]] = {}

    def remove_node(self, node_id: str) -> None:
        del self.nodes[node_id]
        for edges in self.nodes.values():
            edges.discard(node_id)


class BlockAllocator:
    def __init__(self, count: int) -> None:
        self.free_blocks = list(range(count))

    def allocate(self) -> int:
        return self.free_blocks.pop()


def url_parent(path: str) -> str:
    segments = path.split("/")
    segments.pop()
    return "/".join(segments)


class Tokenizer:
    def __init__(self, text: str) -> None:
        self.tokens = text.split()

    def next(self) -> str:
        return self.tokens.pop(0)


class WorkQueue:
    def __init__(self) -> None:
        self._queue: deque[str] = deque()
        self._heap: list[tuple[int, str]] = []

    def take(self) -> str:
        return self._queue.popleft()

    def take_urgent(self) -> str:
        return heapq.heappop(self._heap)[1]


class InMemorySpanExporter:
    """OpenTelemetry-style test exporter: tracing spans, not context spans."""

    def __init__(self) -> None:
        self._finished_spans: list = []

    def export(self, spans) -> None:
        self._finished_spans.extend(spans)

    def clear(self) -> None:
        self._finished_spans.clear()


def clear_editor(widget) -> None:
    widget.delete("1.0", "end")


# Debatable on re-reading the spec (no pruning decision: the caller chooses what goes), kept as negatives.
def reset_context(ctx: Context) -> None:
    ctx.spans.clear()


class MemoryEntries:
    def __init__(self) -> None:
        self.entries: dict[str, Span] = {}

    def delete_entry(self, entry_id: str) -> None:
        del self.entries[entry_id]


class StreamingXMLParser:
    """A text buffer, not a span container."""

    def __init__(self, start_re) -> None:
        self.buffer = ""
        self.start_re = start_re

    def feed(self, chunk: str) -> None:
        self.buffer += chunk
        if match := self.start_re.search(self.buffer):
            self.buffer = self.buffer[match.start():]


class IteratorReader:
    """A bytes buffer drained by a reader."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def read(self, size: int) -> bytes:
        out = bytes(self._buffer[:size])
        del self._buffer[:size]
        return out
