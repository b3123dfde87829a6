# rules: SPL101, SPL102, SPL103, SPL104
"""Prunes write a tombstone marker, not new content; copies stored under a new id are copy-on-rewrite."""
import dataclasses
from typing import NamedTuple

PRUNED = "[pruned]"
REMOVED_MARKER = "[removed]"
NOT_A_MARKER = "[summary]"


@dataclasses.dataclass
class Span:
    span_id: str
    content: str
    version: int = 0


class Turn(NamedTuple):
    id: str
    content: str
    version: int


class Pruner:
    TOMBSTONE = "<tombstone>"

    def prune(self, span: Span) -> None:
        span.content = self.TOMBSTONE

    def prune_literal(self, span: Span) -> None:
        span.content = "[pruned]"

    def prune_constant(self, span: Span) -> None:
        span.content = PRUNED

    def prune_with_reason(self, span: Span, reason: str) -> None:
        span.content = f"[removed] {reason}"

    def prune_other_constant(self, span: Span) -> None:
        span.content = REMOVED_MARKER

    def mark_summary(self, span: Span) -> None:
        span.content = NOT_A_MARKER  # expect: SPL101


def replace_in_store(store: dict, span: Span, text: str) -> None:
    store[span.span_id] = dataclasses.replace(span, content=text)  # expect: SPL101


def replace_in_store_bumped(store: dict, span: Span, text: str) -> None:
    store[span.span_id] = dataclasses.replace(span, content=text, version=span.version + 1)


def replace_turn(history: dict, turn: Turn, text: str) -> None:
    history[turn.id] = turn._replace(content=text)  # expect: SPL101


def replace_turn_bumped(history: dict, turn: Turn, text: str) -> None:
    history[turn.id] = turn._replace(content=text, version=turn.version + 1)


def replace_by_alias(spans: dict, key: str, text: str) -> None:
    s = spans[key]
    spans[key] = dataclasses.replace(s, content=text)  # expect: SPL101


def copy_returned(span: Span, text: str) -> Span:
    return dataclasses.replace(span, content=text)


def copy_new_id(store: dict, span: Span, text: str, new_id: str) -> None:
    store[new_id] = dataclasses.replace(span, span_id=new_id, content=text)


def pydantic_copy(store: dict, msg, text: str) -> None:
    store[msg.message_id] = msg.model_copy(update={"content": text})  # expect: SPL101
