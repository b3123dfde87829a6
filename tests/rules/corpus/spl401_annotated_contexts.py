# rules: SPL401
"""Containers known to hold spans by their annotation or by what is appended to them."""
from collections import deque
from dataclasses import dataclass


@dataclass
class Span:
    id: str
    content: str
    relevance: float


class DecisionLog:
    def __init__(self) -> None:
        self._items: list = []

    def add(self, **entry) -> None:
        self._items.append(entry)


def prune(ctx: list[Span], threshold: float) -> None:
    for s in list(ctx):
        if s.relevance < threshold:
            ctx.remove(s)  # expect: SPL401


def prune_logged(ctx: list[Span], threshold: float, decision_log: DecisionLog) -> None:
    for s in list(ctx):
        if s.relevance < threshold:
            decision_log.add(op="prune", span=s.id, relevance=s.relevance)
            ctx.remove(s)


class Agent:
    def __init__(self, max_len: int) -> None:
        self.window: deque[Span] = deque()
        self.context = []
        self.max_len = max_len
        self.decisions = DecisionLog()

    def observe(self, span: Span) -> None:
        self.context.append(span)

    def shrink(self, keep: int) -> None:
        del self.context[:-keep]  # expect: SPL401

    def shrink_logged(self, keep: int) -> None:
        self.decisions.add(op="shrink", dropped=[s.id for s in self.context[:-keep]])
        del self.context[:-keep]

    def push(self, span: Span) -> None:
        self.window.append(span)
        while len(self.window) > self.max_len:
            self.window.popleft()  # expect: SPL401

    def reset(self) -> None:
        self.context.clear()
        self.window.clear()
