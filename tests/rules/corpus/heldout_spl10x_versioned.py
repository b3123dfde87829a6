# rules: SPL101, SPL102, SPL103, SPL104
"""Held-out: spans that carry a version counter; rewrites must bump it (SPL101)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import NamedTuple

from pydantic import BaseModel


@dataclass
class Span:
    span_id: str
    content: str
    version: int = 0


@dataclass
class Turn:
    id: str
    messages: list[str] = field(default_factory=list)
    revision: int = 0


class Segment:
    def __init__(self, segment_id: str, text: str) -> None:
        self.id = segment_id
        self.text = text
        self.rev = 0


@dataclass(frozen=True)
class FrozenChunk:
    chunk_id: str
    content: str
    version: int = 0


class Passage(NamedTuple):
    id: str
    text: str
    version: int


class ChatTurn(BaseModel):
    id: str
    content: str
    version: int = 0


def redact(span: Span, pattern: str) -> None:
    span.content = span.content.replace(pattern, "***")  # expect: SPL101


def append_note(span: Span, note: str) -> Span:
    span.content += "\n" + note  # expect: SPL101
    return span


def normalize_all(spans: list[Span]) -> None:
    for s in spans:
        s.content = s.content.strip()  # expect: SPL101


class ContextBuffer:
    def __init__(self) -> None:
        self._spans: dict[str, Span] = {}

    def rewrite(self, sid: str, text: str) -> None:
        s = self._spans[sid]
        s.content = text  # expect: SPL101

    def rewrite_if_present(self, sid: str, text: str) -> None:
        item = self._spans.get(sid)
        if item is not None:
            item.content = text  # expect: SPL101

    def rewrite_bumped(self, sid: str, text: str) -> None:
        s = self._spans[sid]
        s.content = text
        s.version += 1

    def compact(self, max_chars: int) -> None:
        for s in self._spans.values():
            if len(s.content) > max_chars:
                s.content = s.content[:max_chars] + "..."  # expect: SPL101

    def compact_bumped(self, max_chars: int) -> None:
        for s in self._spans.values():
            if len(s.content) > max_chars:
                s.content = s.content[:max_chars] + "..."
                s.version += 1

    def uppercase_numbered(self) -> None:
        for i, span in enumerate(self._spans.values()):
            span.content = f"{i}: {span.content.upper()}"  # expect: SPL101


def set_via_setattr(span: Span, text: str) -> None:
    setattr(span, "content", text)  # expect: SPL101


def force_write(chunk: FrozenChunk, text: str) -> None:
    object.__setattr__(chunk, "content", text)  # expect: SPL101


def force_write_bumped(chunk: FrozenChunk, text: str) -> None:
    object.__setattr__(chunk, "content", text)
    object.__setattr__(chunk, "version", chunk.version + 1)


def dict_write(span: Span, text: str) -> None:
    span.__dict__["content"] = text  # expect: SPL101


def add_reply(turn: Turn, reply: str) -> None:
    turn.messages.append(reply)  # expect: SPL101


def drop_last(turn: Turn) -> str:
    return turn.messages.pop()  # expect: SPL101


def edit_message(turn: Turn, i: int, text: str) -> None:
    turn.messages[i] = text  # expect: SPL101


def delete_message(turn: Turn, i: int) -> None:
    del turn.messages[i]  # expect: SPL101


def add_reply_bumped(turn: Turn, reply: str) -> None:
    turn.messages.append(reply)
    turn.revision = turn.revision + 1


def clear_turn_bumped(turn: Turn) -> None:
    turn.revision += 1
    turn.messages.clear()


def clean_segment(segment: Segment) -> None:
    segment.text = segment.text.strip()  # expect: SPL101


def clean_segment_bumped(segment: Segment) -> None:
    segment.text = segment.text.strip()
    segment.rev += 1


def redact_and_bump(span: Span, pattern: str) -> None:
    span.content = span.content.replace(pattern, "***")
    span.version += 1


def bump_first(span: Span, text: str) -> None:
    span.version += 1
    span.content = text


def rewrite_then_bump_method(span, text: str) -> None:
    span.content = text
    span.bump()


def rewrite_then_touch(span, text: str) -> None:
    span.content = text
    span.touch()


def summarize_in_buffer(buffer: dict[str, Span], sid: str, summary: str) -> None:
    s = buffer[sid]
    buffer[s.span_id] = dataclasses.replace(s, content=summary)  # expect: SPL101


def summarize_copy_bumped(buffer: dict[str, Span], sid: str, summary: str) -> None:
    s = buffer[sid]
    buffer[s.span_id] = dataclasses.replace(s, content=summary, version=s.version + 1)


def summarize_new_id(buffer: dict[str, Span], sid: str, summary: str, new_id: str) -> None:
    s = buffer[sid]
    buffer[new_id] = dataclasses.replace(s, span_id=new_id, content=summary)


def rewrite_passages(passages: dict[str, Passage], pid: str, text: str) -> None:
    passage = passages[pid]
    passages[passage.id] = passage._replace(text=text)  # expect: SPL101


def rewrite_passages_bumped(passages: dict[str, Passage], pid: str, text: str) -> None:
    passage = passages[pid]
    passages[passage.id] = passage._replace(text=text, version=passage.version + 1)


def rewrite_turns(turns: dict[str, ChatTurn], tid: str, text: str) -> None:
    turn = turns[tid]
    turns[turn.id] = turn.model_copy(update={"content": text})  # expect: SPL101


def rewrite_turns_bumped(turns: dict[str, ChatTurn], tid: str, text: str) -> None:
    turn = turns[tid]
    turns[turn.id] = turn.model_copy(update={"content": text, "version": turn.version + 1})


def preview_turn(turn: ChatTurn, text: str) -> ChatTurn:
    return turn.model_copy(update={"content": text})


def build_span(sid: str, text: str) -> Span:
    span = Span(span_id=sid, content="")
    span.content = text
    return span


def uppercase_copies(spans: list[Span]) -> list[Span]:
    return [dataclasses.replace(s, content=s.content.upper()) for s in spans]


@dataclass
class VersionedSpan:
    span_id: str
    content: str
    version: int = 0

    def __post_init__(self) -> None:
        self.content = self.content.strip()

    def replace_text(self, text: str) -> None:
        self.content = text  # expect: SPL101

    def replace_text_safely(self, text: str) -> None:
        self.content = text
        self.version += 1


async def summarize_span(span: Span, llm) -> None:
    span.content = await llm.summarize(span.content)  # expect: SPL101


async def summarize_span_bumped(span: Span, llm) -> None:
    span.content = await llm.summarize(span.content)
    span.version += 1


def _bump(s: Span) -> None:
    s.version += 1


def rewrite_with_helper(span: Span, text: str) -> None:
    span.content = text
    _bump(span)


def _bump_second(first: Span, second: Span) -> None:
    second.version += 1


def rewrite_bumping_the_other(span: Span, other: Span, text: str) -> None:
    span.content = text  # expect: SPL101
    _bump_second(span, other)


def maybe_bump(span: Span, text: str, bump: bool) -> None:
    span.content = text  # expect: SPL101
    if bump:
        span.version += 1


def early_return(span: Span, text: str) -> None:
    span.content = text  # expect: SPL101
    if not text:
        return
    span.version += 1


def with_finally(span: Span, text: str) -> None:
    try:
        span.content = text
    finally:
        span.version += 1


def both_branches(span: Span, text: str, major: bool) -> None:
    span.content = text
    if major:
        span.version += 10
    else:
        span.version += 1


def elif_chain(span: Span, mode: str) -> None:
    if mode == "upper":
        span.content = span.content.upper()
        span.version += 1
    elif mode == "lower":
        span.content = span.content.lower()  # expect: SPL101
    else:
        return


def apply_op(span: Span, op: tuple[str, str]) -> None:
    match op:
        case ("replace", text):
            span.content = text  # expect: SPL101
        case ("append", text):
            span.content += text
            span.version += 1
        case _:
            pass


def trim_if_long(spans: list[Span], limit: int) -> None:
    for span in spans:
        if (n := len(span.content)) > limit:
            span.content = span.content[:limit]  # expect: SPL101
            print(n)


def bump_wrong_object(span: Span, other: Span, text: str) -> None:
    span.content = text  # expect: SPL101
    other.version += 1


class Redactor:
    @staticmethod
    def scrub(span: Span) -> None:
        span.content = "<redacted>"  # expect: SPL101


def prune(span: Span) -> None:
    span.content = "[pruned]"


TOMBSTONE = "<tombstone>"


def prune_with_constant(span: Span) -> None:
    span.content = TOMBSTONE


def prune_removed_marker(turn: Turn) -> None:
    turn.messages[0] = "[removed]"
