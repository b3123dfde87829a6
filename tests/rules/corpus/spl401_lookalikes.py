# rules: SPL401
"""Removals that are not context pruning: parsers, queues, caches, graph code, tracing."""
import heapq
from collections import OrderedDict


def parse(tokens: list[str]) -> list:
    stack: list = []
    for token in tokens:
        if token == ")":
            node = stack.pop()
            stack[-1].append(node)
        else:
            stack.append([token])
    return stack


def walk(graph, start):
    frontier = [start]
    seen = set()
    while frontier:
        node = frontier.pop()
        if node in seen:
            continue
        seen.add(node)
        frontier.extend(graph.nodes[node].children)
    return seen


class ResponseCache:
    def __init__(self, maxsize: int = 128) -> None:
        self._entries: OrderedDict = OrderedDict()
        self.maxsize = maxsize

    def put(self, url: str, response) -> None:
        self._entries[url] = response
        if len(self._entries) > self.maxsize:
            self._entries.popitem(last=False)


class Graph:
    def __init__(self) -> None:
        self.nodes: dict = {}

    def remove_node(self, node_id: str) -> None:
        self.nodes.pop(node_id)


def schedule(jobs):
    heap = list(jobs)
    heapq.heapify(heap)
    while heap:
        yield heapq.heappop(heap)


class SpanRecorder:
    """OpenTelemetry-style tracing spans, not context spans."""

    def __init__(self, tracer) -> None:
        self.tracer = tracer
        self.active_spans: dict = {}

    def end(self, event_id: str) -> None:
        span = self.active_spans.pop(event_id, None)
        if span is not None:
            span.end()


def wrap(chunks: list[str], width: int) -> list[str]:
    lines, line = [], ""
    chunks.reverse()
    while chunks:
        if len(line) + len(chunks[-1]) <= width:
            line += chunks.pop()
        else:
            lines.append(line)
            line = ""
    return lines
